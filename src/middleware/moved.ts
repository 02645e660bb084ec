// Names users reach for in `portico/middleware` that live in an entry of their own (so that the
// optional peer they need is loaded only by apps that use them): a pointer, in the types and at run time.

/** Where `jwt()` is: said by the type of its only parameter, and thrown if called. */
export type JwtIsElsewhere =
  'jwt() is in portico/jwt: import { jwt } from "portico/jwt" (it needs the jose package)';

/**
 * Not here: `import { jwt } from "portico/jwt"` (it needs the optional peer `jose`, which only apps
 * using JWTs install). Calling this one throws, saying so.
 *
 * @deprecated Import it from `portico/jwt`.
 */
export function jwt(_options: JwtIsElsewhere): never {
  throw new TypeError(
    'jwt() is in portico/jwt: import { jwt } from "portico/jwt" (it needs the jose package)',
  );
}
