import * as v from "valibot";
import type { AnySchema } from "./entries.ts";
import { mark } from "./mark.ts";
import type { StandardIssue, StandardProps, StandardSchemaV1 } from "./standard.ts";

/** A Standard Schema's issue as Portico reports it: where, and the library's message made safe. */
interface ForeignIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * A Standard Schema (zod, arktype, …) as a valibot schema, made with valibot's own API, so that it
 * runs wherever a valibot schema does (as a whole source, or as one entry among valibot's): validated
 * synchronously by its own library, each issue kept with its path and the library's message, without
 * the value the message may echo. It accepts `undefined` → it is optional (its key may be absent, and
 * its default, if it has one, is given). Its
 * mark leads the plan and the JSON Schema to the library's own JSON Schema.
 */
export function fromStandard(schema: StandardSchemaV1): AnySchema {
  const props = schema["~standard"];
  const runs = v.pipe(
    v.unknown(),
    mark({ standard: schema }),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const result = validateStandard(props, dataset.value === ABSENT ? undefined : dataset.value);
      if (!("issues" in result)) return result.value;
      for (const issue of result.issues) {
        const path = issue.path.map((key) => ({
          type: "unknown",
          origin: "value",
          input: undefined,
          key,
          value: undefined,
        }));
        addIssue({
          message: issue.message,
          ...(path.length > 0 && { path: path as [v.IssuePathItem, ...v.IssuePathItem[]] }),
        });
      }
      return NEVER;
    }),
  );
  const empty = outputOfUndefined(props);
  if (empty === undefined) return runs;
  // A schema with a default (zod's `.default(1)`) must run on an absent key too: valibot runs an
  // optional entry only when its default is not `undefined`, so the default is a marker this reads
  // as "absent".
  return empty.value === undefined ? v.optional(runs) : v.optional(runs, () => ABSENT);
}

// What an absent key is given to a schema with a default (never a value a client can send).
const ABSENT: unique symbol = Symbol("absent");

function validateStandard(
  props: StandardProps,
  value: unknown,
): { readonly value: unknown } | { readonly issues: readonly ForeignIssue[] } {
  const result = props.validate(value);
  if (result instanceof Promise) {
    throw new TypeError(`A ${props.vendor} schema validated asynchronously: params need synchronous schemas`);
  }
  return result.issues === undefined ? { value: result.value } : { issues: result.issues.map(toIssue) };
}

// The output for `undefined` when the schema accepts it (it is then optional), else `undefined`.
function outputOfUndefined(props: StandardProps): { readonly value: unknown } | undefined {
  try {
    const result = props.validate(undefined);
    return result instanceof Promise || result.issues !== undefined ? undefined : { value: result.value };
  } catch {
    return undefined;
  }
}

function toIssue(issue: StandardIssue): ForeignIssue {
  // Array.from, not .map: arktype's path is an Array subclass whose constructor .map would call.
  const path = Array.from(issue.path ?? [], (segment) =>
    typeof segment === "object" && segment !== null ? segment.key : segment,
  );
  let message = issue.message.replace(/\s*\(was [\s\S]*\)\s*$/, "").replace(/^Invalid input:\s*/i, "");
  const prefix = path.map(String).join(".");
  if (prefix !== "" && message.startsWith(`${prefix} `)) message = message.slice(prefix.length + 1);
  if (message.length > 200) message = `${message.slice(0, 200)}…`;
  return { path, message };
}
