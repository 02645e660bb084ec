// Loading an optional peer dependency (`redis`, `@nats-io/transport-node`, `@valibot/to-json-schema`):
// when it is not installed, the entry that needs it says which package and how to install it, instead
// of the runtime's bare "Cannot find package".

/**
 * Loads `name` with `load` (a literal `import("…")`, so that bundlers see it); a missing package is an
 * error naming it, the entry that needs it, and the install command.
 */
export async function optionalPeer<TModule>(
  name: string,
  entry: string,
  load: () => Promise<TModule>,
): Promise<TModule> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    throw new Error(
      `${entry} needs the package "${name}" (an optional peer dependency of portico): npm install ${name}`,
      { cause: error },
    );
  }
}

// Node: ERR_MODULE_NOT_FOUND; Deno, Bun and bundlers: a message that names the specifier.
function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") return true;
  const message = error instanceof Error ? error.message : String(error);
  return message.includes(name) && /cannot find|not found|could not resolve|failed to resolve/i.test(message);
}
