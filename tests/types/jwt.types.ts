// Type tests of portico/jwt: the claims a jwt() middleware gives are typed by its schema, optional ones
// may be missing, and the configuration's mistakes are type errors where TypeScript can see them.
import * as v from "valibot";
import { type JwtClaims, jwt, type KeysUnavailable, verifyJwt } from "../../src/middleware/jwt.ts";
import type { Context } from "../../src/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

declare const ctx: Context<unknown>;
const secret = "a-secret-of-at-least-thirty-two-bytes!";

const typed = jwt({
  secret,
  algorithms: ["HS256"],
  claims: v.object({ sub: v.string(), admin: v.boolean() }),
});
export type TypedClaims = Expect<Equal<ReturnType<typeof typed.claims>, { sub: string; admin: boolean }>>;
export type TypedToken = Expect<Equal<ReturnType<typeof typed.token>, string>>;

const untyped = jwt({ secret, algorithms: ["HS256"], optional: true });
const maybe = untyped.claims(ctx);
export type OptionalClaims = Expect<Equal<typeof maybe, JwtClaims | undefined>>;

const verified = await verifyJwt("t", {
  secret,
  algorithms: ["HS256"],
  claims: v.object({ sub: v.string() }),
});
export type VerifiedClaims = Expect<Equal<typeof verified, { sub: string }>>;

// @ts-expect-error "none" is never an algorithm
jwt({ secret, algorithms: ["none"] });
// @ts-expect-error a key is required
jwt({ algorithms: ["HS256"] });
// @ts-expect-error the algorithms are required
jwt({ secret });

// Lifetimes and the key server's time are numbers of seconds and milliseconds; opting out is by name.
jwt({ secret, algorithms: ["HS256"], requireExpiry: false, maxTokenAge: 3600, clockTolerance: 30 });
jwt({
  jwks: "https://id.example/jwks.json",
  algorithms: ["ES256"],
  jwksTimeoutMs: 2000,
  onKeysError: () => {},
});
// @ts-expect-error maxTokenAge is a number of seconds, not jose's "1h"
jwt({ secret, algorithms: ["HS256"], maxTokenAge: "1h" });
// @ts-expect-error requireExpiry is a boolean
jwt({ secret, algorithms: ["HS256"], requireExpiry: "no" });

// The 503 of a key set that cannot be read is among the declared errors (the typed client knows it).
const remote = jwt({ jwks: new URL("https://id.example/jwks.json"), algorithms: ["ES256"] });
export type DeclaresKeysUnavailable = Expect<
  Equal<typeof remote.errors.KeysUnavailable, typeof KeysUnavailable>
>;
