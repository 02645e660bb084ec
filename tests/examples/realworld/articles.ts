// The articles part of the RealWorld scenario: write, list, filter, page, feed, update, favorite,
// comment, tag, delete — each error case of the spec — and hostile requests.
import assert from "node:assert/strict";
import type { ConduitApi } from "../../../examples/realworld/app.ts";
import type { Client } from "../../../src/client/mod.ts";
import { data, fails } from "./expect.ts";

type Conduit = Client<ConduitApi>;
interface Person {
  readonly username: string;
  readonly email: string;
  readonly password: string;
}

/** Runs the articles part with the users the first part registered (ada follows bo). */
export async function articlesScenario({
  anon,
  adaClient,
  boClient,
  ada,
  bo,
  run,
  baseUrl,
}: {
  anon: Conduit;
  adaClient: Conduit;
  boClient: Conduit;
  ada: Person;
  bo: Person;
  run: string;
  baseUrl: string;
}): Promise<void> {
  // Articles.
  const write = async (client: Conduit, title: string, tagList: string[]) =>
    data(
      await client.createArticle({
        json: { article: { title, description: `About ${title}`, body: `All of ${title}`, tagList } },
      }),
      201,
      `create ${title}`,
    ).article;
  const dragons = await write(boClient, `Dragons ${run}`, [`dragons-${run}`, `training-${run}`]);
  assert.match(dragons.slug, new RegExp(`^dragons-${run}-`));
  assert.deepEqual(dragons.tagList, [`dragons-${run}`, `training-${run}`]);
  assert.equal(dragons.body, `All of Dragons ${run}`);
  const second = await write(boClient, `Second ${run}`, []);
  const own = await write(adaClient, `Ada's ${run}`, [`training-${run}`]);
  fails(
    await boClient.createArticle({ json: { article: { title: "", description: "d", body: "b" } } }),
    422,
    "JSONBodyError",
    "blank title",
  );
  fails(
    await anon.createArticle({ json: { article: { title: "t", description: "d", body: "b" } } }),
    401,
    "Unauthorized",
    "create without a token",
  );

  const list = async (client: Conduit, query: Record<string, unknown>) =>
    data(await client.getArticles({ query }), 200, `list ${JSON.stringify(query)}`);
  const byBo = await list(anon, { author: bo.username });
  assert.deepEqual([byBo.articlesCount, byBo.articles.map((a) => a.slug)], [2, [second.slug, dragons.slug]]);
  assert.equal("body" in byBo.articles[0]!, false, "listed articles have no body");
  assert.equal((await list(anon, { tag: `training-${run}` })).articlesCount, 2);
  const paged = await list(anon, { author: bo.username, limit: 1, offset: 1 });
  assert.deepEqual([paged.articlesCount, paged.articles.map((a) => a.slug)], [2, [dragons.slug]]);
  fails(await anon.getArticles({ query: { limit: 0 } }), 422, "QueryParamsError", "limit 0");
  fails(await anon.getArticles({ query: { offset: -1 } }), 422, "QueryParamsError", "negative offset");
  const wrongType = await fetch(`${baseUrl}/articles?limit=many`);
  assert.equal(wrongType.status, 422);
  assert.equal(wrongType.headers.get("portico-error"), "QueryParamsError");

  const feed = data(await adaClient.getArticlesFeed(), 200, "feed");
  assert.deepEqual(
    feed.articles.map((a) => a.slug),
    [second.slug, dragons.slug],
  );
  assert.equal(feed.articles[0]!.author.following, true);
  assert.equal(data(await boClient.getArticlesFeed(), 200, "bo's feed").articlesCount, 0);
  fails(await anon.getArticlesFeed(), 401, "Unauthorized", "feed without a token");

  assert.equal(
    data(await anon.getArticle({ path: { slug: dragons.slug } }), 200, "get").article.title,
    `Dragons ${run}`,
  );
  fails(await anon.getArticle({ path: { slug: "no-such-article" } }), 404, "NotFound", "unknown article");
  const renamed = data(
    await boClient.updateArticle({
      path: { slug: dragons.slug },
      json: { article: { title: `Dragons II ${run}` } },
    }),
    200,
    "update article",
  ).article;
  assert.match(renamed.slug, new RegExp(`^dragons-ii-${run}-`));
  assert.equal(renamed.body, dragons.body);
  fails(
    await adaClient.updateArticle({ path: { slug: renamed.slug }, json: { article: { body: "mine now" } } }),
    403,
    "Forbidden",
    "update another's",
  );
  fails(
    await boClient.updateArticle({ path: { slug: "no-such-article" }, json: { article: { body: "x" } } }),
    404,
    "NotFound",
    "update unknown",
  );
  fails(
    await anon.updateArticle({ path: { slug: renamed.slug }, json: { article: { body: "x" } } }),
    401,
    "Unauthorized",
    "update without a token",
  );

  // Favorites.
  const favorited = data(
    await adaClient.createArticleFavorite({ path: { slug: renamed.slug } }),
    200,
    "favorite",
  ).article;
  assert.deepEqual([favorited.favorited, favorited.favoritesCount], [true, 1]);
  assert.equal(
    data(await adaClient.createArticleFavorite({ path: { slug: renamed.slug } }), 200, "favorite twice")
      .article.favoritesCount,
    1,
  );
  const favorites = await list(adaClient, { favorited: ada.username });
  assert.deepEqual([favorites.articlesCount, favorites.articles[0]!.favorited], [1, true]);
  assert.equal((await list(anon, { favorited: ada.username })).articles[0]!.favorited, false);
  fails(
    await adaClient.createArticleFavorite({ path: { slug: "no-such-article" } }),
    404,
    "NotFound",
    "favorite unknown",
  );
  const unfavorited = data(
    await adaClient.deleteArticleFavorite({ path: { slug: renamed.slug } }),
    200,
    "unfavorite",
  ).article;
  assert.deepEqual([unfavorited.favorited, unfavorited.favoritesCount], [false, 0]);

  // Comments.
  const comment = data(
    await adaClient.createArticleComment({
      path: { slug: renamed.slug },
      json: { comment: { body: "Lovely" } },
    }),
    200,
    "comment",
  ).comment;
  assert.deepEqual([comment.body, comment.author.username], ["Lovely", ada.username]);
  const comments = data(
    await anon.getArticleComments({ path: { slug: renamed.slug } }),
    200,
    "comments",
  ).comments;
  assert.deepEqual(
    comments.map((c) => c.id),
    [comment.id],
  );
  fails(
    await adaClient.createArticleComment({ path: { slug: renamed.slug }, json: { comment: { body: " " } } }),
    422,
    "JSONBodyError",
    "blank comment",
  );
  fails(
    await adaClient.createArticleComment({
      path: { slug: "no-such-article" },
      json: { comment: { body: "x" } },
    }),
    404,
    "NotFound",
    "comment unknown",
  );
  fails(
    await anon.getArticleComments({ path: { slug: "no-such-article" } }),
    404,
    "NotFound",
    "comments of unknown",
  );
  fails(
    await boClient.deleteArticleComment({ path: { slug: renamed.slug, id: comment.id } }),
    403,
    "Forbidden",
    "delete another's comment",
  );
  fails(
    await adaClient.deleteArticleComment({ path: { slug: renamed.slug, id: 2_000_000_000 } }),
    404,
    "NotFound",
    "delete unknown comment",
  );
  assert.equal(
    (await adaClient.deleteArticleComment({ path: { slug: renamed.slug, id: comment.id } })).status,
    204,
  );
  assert.equal(
    data(await anon.getArticleComments({ path: { slug: renamed.slug } }), 200, "no comments").comments.length,
    0,
  );

  // Tags, unfollow, delete.
  const tags = data(await anon.getTags(), 200, "tags").tags;
  assert.ok(tags.includes(`training-${run}`) && tags.includes(`dragons-${run}`));
  assert.equal(
    data(await adaClient.unfollowUserByUsername({ path: { username: bo.username } }), 200, "unfollow").profile
      .following,
    false,
  );
  assert.equal(data(await adaClient.getArticlesFeed(), 200, "feed after unfollow").articlesCount, 0);
  fails(
    await adaClient.deleteArticle({ path: { slug: renamed.slug } }),
    403,
    "Forbidden",
    "delete another's article",
  );
  assert.equal((await boClient.deleteArticle({ path: { slug: renamed.slug } })).status, 204);
  fails(await anon.getArticle({ path: { slug: renamed.slug } }), 404, "NotFound", "deleted article");
  fails(await adaClient.deleteArticle({ path: { slug: renamed.slug } }), 404, "NotFound", "delete twice");
  assert.equal((await adaClient.deleteArticle({ path: { slug: own.slug } })).status, 204);

  // Hostile requests: the spec's body and a 4xx, never a 500.
  const raw = (body: string, type = "application/json") =>
    fetch(`${baseUrl}/users`, { method: "POST", headers: { "content-type": type }, body });
  for (const [what, response, status] of [
    ["malformed JSON", await raw("{"), 422],
    ["a JSON array", await raw("[]"), 422],
    ["a form body", await raw("user=x", "application/x-www-form-urlencoded"), 422],
    ["a body over the limit", await raw(`{"user":{"username":"${"x".repeat(2_000_000)}"}}`), 413],
  ] as const) {
    assert.equal(response.status, status, what);
    const body = (await response.json()) as { errors: { body: string[] } };
    assert.ok(body.errors.body.length > 0, what);
  }
}
