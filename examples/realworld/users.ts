// Users and authentication: register, log in, read and update the current user.
import { defineEndpoint, t } from "portico";
import { Unauthorized } from "portico/jwt";
import * as v from "valibot";
import type { Auth } from "./auth.ts";
import type { Database } from "./db.ts";
import { checkPassword, hashPassword } from "./passwords.ts";
import { type UserRow, UserView } from "./views.ts";

const doc = { tags: ["User and Authentication"] };
const Email = v.pipe(
  v.string(),
  v.trim(),
  v.email("email is invalid"),
  v.maxLength(254, "email is too long"),
);
const Username = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty("username can't be blank"),
  v.maxLength(64, "username is too long"),
);
const Password = v.pipe(
  v.string(),
  v.minLength(8, "password is too short (minimum is 8 characters)"),
  v.maxLength(256, "password is too long"),
);
const USER_COLUMNS = "id, email, username, bio, image";
// A hash checked when no user has the email, so that a login takes as long either way.
const NOBODY = hashPassword("not anyone's password");

/** The user routes, on a database and an auth. */
export function userRoutes(db: Database, auth: Auth) {
  const taken = async (field: "email" | "username", value: string, except = 0) =>
    (await db.query(`SELECT 1 FROM users WHERE ${field} = $1 AND id <> $2`, [value, except])).length > 0;

  const Login = defineEndpoint({
    doc: { ...doc, summary: "Existing user login" },
    params: {
      json: t.body(
        {
          user: v.object({
            email: v.pipe(v.string(), v.nonEmpty("email can't be blank")),
            password: v.pipe(v.string(), v.nonEmpty("password can't be blank")),
          }),
        },
        { require: true },
      ),
    },
    errors: { InvalidCredentials: { code: 401, message: "email or password is invalid" } },
    view: UserView,
    async call(ep) {
      const { email, password } = ep.params.json.user;
      const [found] = await db.query<UserRow & { password_hash: string }>(
        `SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = $1`,
        [email.trim()],
      );
      const ok = await checkPassword(password, found?.password_hash ?? (await NOBODY));
      if (found === undefined || !ok) throw new ep.errors.InvalidCredentials();
      return UserView({ user: found, token: await auth.issue(found.id) });
    },
  });

  const Register = defineEndpoint({
    doc: { ...doc, summary: "Register a new user" },
    params: {
      json: t.body(
        { user: v.object({ username: Username, email: Email, password: Password }) },
        { require: true },
      ),
    },
    errors: {
      EmailTaken: { code: 422, message: "email has already been taken" },
      UsernameTaken: { code: 422, message: "username has already been taken" },
    },
    status: 201,
    view: UserView,
    async call(ep) {
      const { username, email, password } = ep.params.json.user;
      if (await taken("email", email)) throw new ep.errors.EmailTaken();
      if (await taken("username", username)) throw new ep.errors.UsernameTaken();
      const hash = await hashPassword(password);
      const [user] = await db
        .query<UserRow>(
          `INSERT INTO users (email, username, password_hash) VALUES ($1, $2, $3) RETURNING ${USER_COLUMNS}`,
          [email, username, hash],
        )
        .catch((error: { code?: string; constraint?: string }) => {
          // Two registrations at once: the database's uniqueness decides.
          if (error.code !== "23505") throw error;
          throw error.constraint?.includes("email")
            ? new ep.errors.EmailTaken()
            : new ep.errors.UsernameTaken();
        });
      ep.header("location", "/api/user");
      return UserView({ user: user!, token: await auth.issue(user!.id) });
    },
  });

  const current = async (ctx: Parameters<typeof auth.requireUser.claims>[0]) => {
    const [user] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [
      Number(auth.requireUser.claims(ctx).sub),
    ]);
    // A valid token for a user that no longer exists.
    if (user === undefined) throw new Unauthorized();
    return user;
  };

  const GetCurrentUser = defineEndpoint({
    doc: { ...doc, summary: "Get current user" },
    view: UserView,
    async call(ep) {
      return UserView({ user: await current(ep.context), token: auth.requireUser.token(ep.context) });
    },
  });

  const UpdateCurrentUser = defineEndpoint({
    doc: { ...doc, summary: "Update current user" },
    params: {
      json: t.body(
        {
          user: v.pipe(
            v.object({
              email: v.optional(Email),
              username: v.optional(Username),
              password: v.optional(Password),
              bio: v.optional(v.pipe(v.string(), v.maxLength(10_000, "bio is too long"))),
              image: v.optional(v.pipe(v.string(), v.maxLength(2_000, "image is too long"))),
            }),
            v.check(
              (user) => Object.values(user).some((value) => value !== undefined),
              "user: give at least one field",
            ),
          ),
        },
        { require: true },
      ),
    },
    errors: {
      EmailTaken: { code: 422, message: "email has already been taken" },
      UsernameTaken: { code: 422, message: "username has already been taken" },
    },
    view: UserView,
    async call(ep) {
      const me = await current(ep.context);
      const changes = ep.params.json.user;
      if (changes.email !== undefined && (await taken("email", changes.email, me.id)))
        throw new ep.errors.EmailTaken();
      if (changes.username !== undefined && (await taken("username", changes.username, me.id)))
        throw new ep.errors.UsernameTaken();
      const hash = changes.password === undefined ? null : await hashPassword(changes.password);
      const [user] = await db.query<UserRow>(
        `UPDATE users SET email = coalesce($2, email), username = coalesce($3, username),
           password_hash = coalesce($4, password_hash), bio = coalesce($5, bio), image = coalesce($6, image)
         WHERE id = $1 RETURNING ${USER_COLUMNS}`,
        [
          me.id,
          changes.email ?? null,
          changes.username ?? null,
          hash,
          changes.bio ?? null,
          changes.image ?? null,
        ],
      );
      return UserView({ user: user!, token: auth.requireUser.token(ep.context) });
    },
  });

  return {
    login: ["POST", "/users/login", Login],
    createUser: ["POST", "/users", Register],
    getCurrentUser: ["GET", "/user", GetCurrentUser, { use: [auth.requireUser] }],
    updateCurrentUser: ["PUT", "/user", UpdateCurrentUser, { use: [auth.requireUser] }],
  } as const;
}
