// Credentials in the `Authorization` header: `bearerAuth()` (RFC 6750) and `basicAuth()` (RFC 7617).
// Secrets are compared in constant time (SHA-256 digests of both sides, every byte looked at, every
// configured token tried), a refusal is the declared 401 `Unauthorized` with `WWW-Authenticate`, and
// each declares its OpenAPI security scheme.
import type { Context } from "../context/context.ts";
import type { DeclaringMiddleware } from "../context/route-doc.ts";
import { defineError, type ErrorClass } from "../errors/define-error.ts";
import { type UpgradeTokenSource, upgradeToken } from "../ws/upgrade-token.ts";
import { declaring } from "./declaring.ts";

export type { UpgradeTokenSource } from "../ws/upgrade-token.ts";

/**
 * Where a browser's websocket upgrade may carry the token, since a browser cannot set `Authorization`
 * on one: read only on upgrade requests, only when the header is absent. `"protocol"`: offered as two
 * subprotocols, `bearer` and `bearer.<token>` (`new WebSocket(url, ["bearer", "bearer." + token])`; the
 * token must then be an HTTP token, as a JWT is); the answer names `bearer` (or the channel's own
 * subprotocol), never the token. `"query"`: the `access_token` query parameter (RFC 6750 §2.3; a URL
 * ends up in proxy logs and browser history: prefer the subprotocol). Portico's logger never logs either.
 */
export type WebsocketTokenOption = UpgradeTokenSource | readonly UpgradeTokenSource[];

/**
 * The token: from the header when one was sent (`sent`, read as `fromHeader`), else, on an upgrade and
 * where allowed, from what a browser can send.
 */
export function tokenOf(
  ctx: Context<unknown>,
  sent: string | null,
  fromHeader: string | undefined,
  sources: readonly UpgradeTokenSource[],
): string | undefined {
  return sent === null ? upgradeToken(ctx, sources) : fromHeader;
}

/** The sources of `websocketToken`, checked. */
export function tokenSources(
  option: WebsocketTokenOption | undefined,
  who: string,
): readonly UpgradeTokenSource[] {
  const sources = option === undefined ? [] : typeof option === "string" ? [option] : [...option];
  for (const source of sources) {
    if (source !== "protocol" && source !== "query")
      throw new TypeError(
        `${who}: websocketToken takes "protocol" and "query", got ${JSON.stringify(source)}`,
      );
  }
  return sources;
}

/** 401: the credentials are missing or wrong (`WWW-Authenticate` says which scheme is expected). */
export const Unauthorized: ErrorClass<undefined> = defineError("Unauthorized", 401, {
  message: "Missing or invalid credentials",
});

/** Options of {@link bearerAuth}: the accepted tokens, or a check of your own. */
export type BearerAuthOptions = (
  | { readonly token: string | readonly string[] }
  | { readonly verify: (token: string, ctx: Context<unknown>) => boolean | Promise<boolean> }
) & {
  /** The realm named in `WWW-Authenticate` (default `"api"`). */
  readonly realm?: string;
  /** The name of the OpenAPI security scheme (default `"bearerAuth"`). */
  readonly schemeName?: string;
  /** Where a browser's websocket upgrade may carry the token instead (see {@link WebsocketTokenOption}). */
  readonly websocketToken?: WebsocketTokenOption;
};

/** Options of {@link basicAuth}: one user, or a check of your own. */
export type BasicAuthOptions = (
  | { readonly username: string; readonly password: string }
  | {
      readonly verify: (
        username: string,
        password: string,
        ctx: Context<unknown>,
      ) => boolean | Promise<boolean>;
    }
) & {
  /** The realm named in `WWW-Authenticate` (default `"api"`). */
  readonly realm?: string;
  /** The name of the OpenAPI security scheme (default `"basicAuth"`). */
  readonly schemeName?: string;
};

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * A check of a secret against configured ones: their digests are made once, on the first request; each
 * request then digests what it was given and compares with every one of them, in time that depends on
 * neither side.
 */
function matcher(expected: readonly string[]): (given: string) => Promise<boolean> {
  let digests: Promise<Uint8Array[]> | undefined;
  return async (given) => {
    digests ??= Promise.all(expected.map(digest));
    const [mine, theirs] = await Promise.all([digest(given), digests]);
    let found = 0;
    for (const candidate of theirs) {
      let diff = 0;
      for (let i = 0; i < mine.length; i++) diff |= mine[i]! ^ candidate[i]!;
      found |= diff === 0 ? 1 : 0;
    }
    return found === 1;
  };
}

/**
 * The credentials after `<scheme> ` in a header's value (the scheme in any case; `""`: the whole value),
 * or `undefined` when absent, of another scheme, or empty. Shared with `portico/jwt`.
 */
export function credentials(value: string | null, scheme: string): string | undefined {
  if (value === null) return undefined;
  if (scheme === "") return value.trim() || undefined;
  const space = value.indexOf(" ");
  if (space < 0 || value.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  return value.slice(space + 1).trim() || undefined;
}

/** Throws the declared 401 with its challenge, and why (`error_description`, the message) when given. */
export function refuse(challenge: string, why?: string): never {
  const error = Object.assign(new Unauthorized(), {
    headers: {
      "www-authenticate":
        why === undefined
          ? challenge
          : `${challenge}, error="invalid_token", error_description=${quoted(why)}`,
    },
  });
  if (why !== undefined) error.message = why;
  throw error;
}

/** A quoted-string (RFC 9110 §5.6.4). */
export function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, "\\$&")}"`;
}

/**
 * Requires `Authorization: Bearer <token>`: one of the given tokens, or one `verify` accepts. Missing or
 * wrong credentials are the declared 401 `Unauthorized` with `WWW-Authenticate: Bearer realm="api"`
 * (and `error="invalid_token"` when one was sent). Declares an HTTP bearer security scheme.
 *
 * @example
 * app.use(bearerAuth({ token: process.env.API_TOKEN! }));
 * r.use(bearerAuth({ verify: (token) => tokens.has(token) }));
 */
export function bearerAuth(
  options: BearerAuthOptions,
): DeclaringMiddleware<{ readonly Unauthorized: typeof Unauthorized }> {
  const realm = `realm=${quoted(options.realm ?? "api")}`;
  const tokens =
    "token" in options
      ? typeof options.token === "string"
        ? [options.token]
        : [...options.token]
      : undefined;
  if (tokens !== undefined && (tokens.length === 0 || tokens.some((token) => token === "")))
    throw new TypeError("bearerAuth(): give at least one token, none empty");
  const verify = "verify" in options ? options.verify : undefined;
  const matches = tokens === undefined ? undefined : matcher(tokens);
  const sources = tokenSources(options.websocketToken, "bearerAuth()");
  return declaring(
    async (ctx, next) => {
      const sent = ctx.request.header("authorization");
      const token = tokenOf(ctx, sent, credentials(sent, "Bearer"), sources);
      if (token === undefined) refuse(`Bearer ${realm}`);
      const accepted = matches !== undefined ? await matches(token) : await verify!(token, ctx);
      if (!accepted) refuse(`Bearer ${realm}, error="invalid_token"`);
      return next();
    },
    {
      errors: { Unauthorized },
      security: { schemes: { [options.schemeName ?? "bearerAuth"]: { type: "http", scheme: "bearer" } } },
    },
  );
}

/**
 * Requires `Authorization: Basic <base64 of user:password>` (UTF-8): the given user, or one `verify`
 * accepts. Missing, malformed or wrong credentials are the declared 401 `Unauthorized` with
 * `WWW-Authenticate: Basic realm="api", charset="UTF-8"`. Declares an HTTP basic security scheme.
 *
 * @example
 * app.on("/admin", (r) => r.use(basicAuth({ username: "admin", password: process.env.ADMIN_PASSWORD! })));
 */
export function basicAuth(
  options: BasicAuthOptions,
): DeclaringMiddleware<{ readonly Unauthorized: typeof Unauthorized }> {
  const challenge = `Basic realm=${quoted(options.realm ?? "api")}, charset="UTF-8"`;
  if ("password" in options && (options.username === "" || options.password === ""))
    throw new TypeError("basicAuth(): the username and the password must not be empty");
  const verify = "verify" in options ? options.verify : undefined;
  const user = "username" in options ? matcher([options.username]) : undefined;
  const secret = "password" in options ? matcher([options.password]) : undefined;
  return declaring(
    async (ctx, next) => {
      const sent = credentials(ctx.request.header("authorization"), "Basic");
      const pair = sent === undefined ? undefined : decodeBasic(sent);
      if (pair === undefined) refuse(challenge);
      const [username, password] = pair;
      // Both compared, always: which one was wrong takes no longer to find than the other.
      const accepted =
        verify !== undefined
          ? await verify(username, password, ctx)
          : (await Promise.all([user!(username), secret!(password)])).every(Boolean);
      if (!accepted) refuse(challenge);
      return next();
    },
    {
      errors: { Unauthorized },
      security: { schemes: { [options.schemeName ?? "basicAuth"]: { type: "http", scheme: "basic" } } },
    },
  );
}

// `user:password` from base64 (UTF-8), or `undefined` when it is not that.
function decodeBasic(encoded: string): [string, string] | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
  const colon = text.indexOf(":");
  return colon < 0 ? undefined : [text.slice(0, colon), text.slice(colon + 1)];
}
