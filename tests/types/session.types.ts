// Type tests of portico/session: a session's data is typed by the middleware's schema (every field may be
// missing: a new session is empty), `ctx.session` by `Register["session"]` or as any record.
import * as v from "valibot";
import { memoryStore } from "../../src/middleware/mod.ts";
import type { Context, Session } from "../../src/mod.ts";
import { session } from "../../src/session/session.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

declare const ctx: Context<unknown>;
const secret = "a-session-secret-of-at-least-32-characters";

const typed = session({ secret, schema: v.object({ userId: v.string(), roles: v.array(v.string()) }) });
const data = typed.of(ctx).data;
export type TypedData = Expect<Equal<typeof data, Partial<{ userId: string; roles: string[] }>>>;
export type UserId = Expect<Equal<typeof data.userId, string | undefined>>;

const untyped = session({ secret });
export type UntypedData = Expect<Equal<ReturnType<typeof untyped.of>, Session<Record<string, unknown>>>>;
export type Unregistered = Expect<Equal<typeof ctx.session, Session>>;

// @ts-expect-error the schema's type is kept: a number is not a user id
typed.of(ctx).data.userId = 42;
// @ts-expect-error a secret or a store is needed, not a number
session({ secret: 42 });

// revocation: the subject function reads the data typed by the schema, and gives a string or a number.
const revocable = session({
  secret,
  schema: v.object({ userId: v.string() }),
  revocation: {
    store: memoryStore(),
    subject: (data) => {
      const checked: Expect<Equal<typeof data, Partial<{ userId: string }>>> = true;
      return checked ? data.userId : undefined;
    },
  },
});
export type Revoke = Expect<Equal<typeof revocable.revoke, (subject: string | number) => Promise<void>>>;
// @ts-expect-error a subject is a string or a number, not the session's data
session({ secret, revocation: { store: memoryStore(), subject: (data) => data } });
