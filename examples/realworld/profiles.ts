// Profiles: read one (with whether the viewer follows it), follow, unfollow.
import { defineEndpoint, type RouteEntry } from "portico";
import * as v from "valibot";
import { type Auth, NotFound } from "./auth.ts";
import type { Database } from "./db.ts";
import { type AuthorRow, ProfileView } from "./views.ts";

const doc = { tags: ["Profile"] };
const params = { path: { username: v.string() } };

/** The profile routes, on a database and an auth. */
export function profileRoutes(db: Database, auth: Auth) {
  const viewerOf = (ctx: Parameters<typeof auth.maybeUser.claims>[0]) => {
    const sub = auth.maybeUser.claims(ctx)?.sub;
    return sub === undefined ? null : Number(sub);
  };
  const profile = async (username: string, viewer: number | null) => {
    const [row] = await db.query<AuthorRow & { id: number }>(
      `SELECT u.id, u.username, u.bio, u.image,
         EXISTS (SELECT 1 FROM follows w WHERE w.follower_id = $2 AND w.followed_id = u.id) AS following
       FROM users u WHERE u.username = $1`,
      [username, viewer],
    );
    if (row === undefined) throw new NotFound();
    return row;
  };

  const GetProfile = defineEndpoint({
    doc: { ...doc, summary: "Get a profile" },
    params,
    errors: { NotFound },
    view: ProfileView,
    call: async (ep) => ProfileView(await profile(ep.params.path.username, viewerOf(ep.context))),
  });

  const follow = (following: boolean) =>
    defineEndpoint({
      doc: { ...doc, summary: following ? "Follow a user" : "Unfollow a user" },
      params,
      errors: { NotFound },
      view: ProfileView,
      async call(ep) {
        const me = Number(auth.requireUser.claims(ep.context).sub);
        const target = await profile(ep.params.path.username, me);
        if (following)
          await db.query(
            "INSERT INTO follows (follower_id, followed_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            [me, target.id],
          );
        else
          await db.query("DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2", [me, target.id]);
        return ProfileView({ ...target, following });
      },
    });

  return {
    getProfileByUsername: ["GET", "/profiles/:username", GetProfile, { use: [auth.maybeUser] }],
    followUserByUsername: ["POST", "/profiles/:username/follow", follow(true), { use: [auth.requireUser] }],
    unfollowUserByUsername: [
      "DELETE",
      "/profiles/:username/follow",
      follow(false),
      { use: [auth.requireUser] },
    ],
  } as const satisfies Record<string, RouteEntry>;
}
