// The RealWorld API driven end to end through portico/client (reading the served OpenAPI document), as
// two users would use it — register, log in, follow, write, favorite, comment — and every error case of
// the spec (401, 403, 404, 422 in its error body), plus hostile requests. Run against real servers on
// each runtime and database by realworld.test.ts.
import assert from "node:assert/strict";
import type { ConduitApi } from "../../../examples/realworld/app.ts";
import { createClient } from "../../../src/client/mod.ts";
import { signJwt } from "../../../src/middleware/jwt.ts";
import { articlesScenario } from "./articles.ts";
import { data, fails, type Result } from "./expect.ts";
import { rudeClients } from "./rude.ts";

/** The secret the servers are started with, so that the tests can make expired and foreign tokens. */
export const SECRET = "realworld-test-secret-of-32-bytes-at-least";

/** Runs the whole scenario against a server whose API is at `origin` + /api. */
export async function conduitScenario(origin: string): Promise<void> {
  const spec = `${origin}/api/openapi.json`;
  const baseUrl = `${origin}/api`;
  const as = (token?: string) =>
    createClient<ConduitApi>({
      baseUrl,
      spec,
      ...(token === undefined ? {} : { headers: { authorization: `Token ${token}` } }),
    });
  const anon = as();
  const run = Date.now().toString(36);
  const ada = { username: `ada-${run}`, email: `ada-${run}@example.com`, password: "correct horse" };
  const bo = { username: `bo-${run}`, email: `bo-${run}@example.com`, password: "battery staple" };

  // Register, log in, the current user.
  const registered = data(await anon.createUser({ json: { user: ada } }), 201, "register ada");
  assert.equal(registered.user.username, ada.username);
  assert.equal(registered.user.bio, "");
  const boToken = data(await anon.createUser({ json: { user: bo } }), 201, "register bo").user.token;
  fails(
    await anon.createUser({ json: { user: { ...ada, username: "other" } } }),
    422,
    "EmailTaken",
    "same email",
  );
  fails(
    await anon.createUser({ json: { user: { ...ada, email: `x${ada.email}` } } }),
    422,
    "UsernameTaken",
    "same username",
  );
  fails(
    await anon.createUser({ json: { user: { username: "", email: "nope", password: "short" } } }),
    422,
    "JSONBodyError",
    "invalid user",
  );
  fails(await anon.createUser({ json: {} as never }), 422, "JSONBodyError", "no user");
  const adaToken = data(
    await anon.login({ json: { user: { email: ada.email, password: ada.password } } }),
    200,
    "login",
  ).user.token;
  fails(
    await anon.login({ json: { user: { email: ada.email, password: "wrong password" } } }),
    401,
    "InvalidCredentials",
    "wrong password",
  );
  fails(
    await anon.login({ json: { user: { email: "nobody@example.com", password: "whatever1" } } }),
    401,
    "InvalidCredentials",
    "unknown email",
  );
  fails(
    await anon.login({ json: { user: { email: "", password: "" } } }),
    422,
    "JSONBodyError",
    "blank login",
  );
  const adaClient = as(adaToken);
  const boClient = as(boToken);
  assert.equal(data(await adaClient.getCurrentUser(), 200, "current user").user.email, ada.email);
  fails(await anon.getCurrentUser(), 401, "Unauthorized", "no token");
  const expired = await signJwt({}, { secret: SECRET, subject: "1", issuer: "conduit", expiresIn: -60 });
  const foreign = await signJwt({}, { secret: `${SECRET}-other`, subject: "1", issuer: "conduit" });
  const unsigned = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from('{"sub":"1","iss":"conduit"}').toString("base64url")}.`;
  for (const [what, token] of [
    ["expired", expired],
    ["another key", foreign],
    ["alg none", unsigned],
    ["garbage", "x.y.z"],
  ])
    fails(await as(token).getCurrentUser(), 401, "Unauthorized", `${what} token`);
  const bearer = await fetch(`${baseUrl}/user`, { headers: { authorization: `Bearer ${adaToken}` } });
  assert.equal(bearer.status, 401, "the spec's scheme is Token, not Bearer");
  assert.match(bearer.headers.get("www-authenticate") ?? "", /^Token realm=/);

  // Update the current user.
  const updated = data(
    await adaClient.updateCurrentUser({
      json: { user: { bio: "I write", image: "https://example.com/a.png" } },
    }),
    200,
    "update",
  );
  assert.deepEqual(
    [updated.user.bio, updated.user.image, updated.user.token],
    ["I write", "https://example.com/a.png", adaToken],
  );
  fails(
    await adaClient.updateCurrentUser({ json: { user: { email: bo.email } } }),
    422,
    "EmailTaken",
    "update to a taken email",
  );
  fails(await adaClient.updateCurrentUser({ json: { user: {} } }), 422, "JSONBodyError", "update nothing");
  fails(
    await anon.updateCurrentUser({ json: { user: { bio: "x" } } }),
    401,
    "Unauthorized",
    "update without a token",
  );

  // Profiles and follows.
  const profile = (await anon.getProfileByUsername({ path: { username: bo.username } })) as Result;
  assert.deepEqual(data(profile as never, 200, "profile"), {
    profile: { username: bo.username, bio: "", image: "", following: false },
  });
  fails(
    await anon.getProfileByUsername({ path: { username: "nobody-at-all" } }),
    404,
    "NotFound",
    "unknown profile",
  );
  assert.equal(
    data(await adaClient.followUserByUsername({ path: { username: bo.username } }), 200, "follow").profile
      .following,
    true,
  );
  assert.equal(
    data(await adaClient.getProfileByUsername({ path: { username: bo.username } }), 200, "followed").profile
      .following,
    true,
  );
  fails(
    await anon.followUserByUsername({ path: { username: bo.username } }),
    401,
    "Unauthorized",
    "follow without a token",
  );
  fails(
    await adaClient.followUserByUsername({ path: { username: "nobody-at-all" } }),
    404,
    "NotFound",
    "follow unknown",
  );

  await articlesScenario({ anon, adaClient, boClient, ada, bo, run, baseUrl });
  await rudeClients(origin, ada);
}
