// Who is asking: a JWT in `Authorization: Token <jwt>` (the spec's scheme), required on some routes and
// optional on others, its subject the user's id; and the errors the spec's bodies share.
import { defineError, defineErrorBody } from "portico";
import { jwt, signJwt } from "portico/jwt";
import * as v from "valibot";

/** The spec's error body: `{ "errors": { "body": [...] } }`, one line per problem. */
export const conduitErrors = defineErrorBody({
  name: "GenericErrorModel",
  schema: v.object({ errors: v.object({ body: v.array(v.string()) }) }),
  render: (error) => ({
    errors: {
      body:
        error.issues.length > 0 ? error.issues.map((issue) => issue.message) : [error.message ?? error.title],
    },
  }),
});

export const NotFound = defineError("NotFound", 404, { message: "not found" });
export const Forbidden = defineError("Forbidden", 403, { message: "you may not change what is not yours" });

const claims = v.object({ sub: v.pipe(v.string(), v.regex(/^\d+$/)) });

/** The token checks and how tokens are made, for one secret. */
export function authFor(secret: string) {
  const options = {
    secret,
    algorithms: ["HS256"],
    scheme: "Token",
    schemeName: "Token",
    issuer: "conduit",
    claims,
  } as const;
  const requireUser = jwt(options);
  const maybeUser = jwt({ ...options, optional: true });
  return {
    requireUser,
    maybeUser,
    /** A token for a user: 30 days. */
    issue: (userId: number) =>
      signJwt({}, { secret, subject: String(userId), issuer: "conduit", expiresIn: 30 * 86_400 }),
  };
}

/** The auth of an app. */
export type Auth = ReturnType<typeof authFor>;
