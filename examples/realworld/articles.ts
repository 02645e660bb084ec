// Articles: the list (filtered by tag, author or favoriting user, a page at a time), the feed of followed
// authors, one article, create, update and delete (by its author only), favorite and unfavorite.
import { defineEndpoint, type RouteEntry, t } from "portico";
import * as v from "valibot";
import { articleBySlug, listArticles, withSlug } from "./article-queries.ts";
import { type Auth, Forbidden, NotFound } from "./auth.ts";
import type { Database } from "./db.ts";
import { ArticlesView, ArticleView } from "./views.ts";

const doc = { tags: ["Articles"] };
const page = {
  offset: v.optional(v.pipe(t.int32(), v.minValue(0, "offset must be 0 or more")), 0),
  limit: v.optional(
    v.pipe(t.int32(), v.minValue(1, "limit must be 1 or more"), v.maxValue(100, "limit must be 100 or less")),
    20,
  ),
};
const bySlug = { path: { slug: v.string() } };
const Text = (field: string, max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty(`${field} can't be blank`),
    v.maxLength(max, `${field} is too long`),
  );
const Tags = v.pipe(
  v.array(
    v.pipe(v.string(), v.trim(), v.nonEmpty("a tag can't be blank"), v.maxLength(64, "a tag is too long")),
  ),
  v.maxLength(20, "tagList holds 20 tags at most"),
  v.transform((tags) => [...new Set(tags)]),
);

/** The article routes, on a database and an auth. */
export function articleRoutes(db: Database, auth: Auth) {
  const viewer = (ctx: Parameters<typeof auth.maybeUser.claims>[0]) => {
    const sub = auth.maybeUser.claims(ctx)?.sub;
    return sub === undefined ? null : Number(sub);
  };
  const me = (ctx: Parameters<typeof auth.requireUser.claims>[0]) => Number(auth.requireUser.claims(ctx).sub);
  const found = async (slug: string, who: number | null) => {
    const article = await articleBySlug(db, slug, who);
    if (article === undefined) throw new NotFound();
    return article;
  };
  const owned = async (slug: string, who: number) => {
    const article = await found(slug, who);
    if (article.author_id !== who) throw new Forbidden();
    return article;
  };

  const ListArticles = defineEndpoint({
    doc: { ...doc, summary: "Get recent articles globally" },
    params: {
      query: {
        tag: v.optional(v.string()),
        author: v.optional(v.string()),
        favorited: v.optional(v.string()),
        ...page,
      },
    },
    view: ArticlesView,
    call: async (ep) => ArticlesView(await listArticles(db, ep.params.query, viewer(ep.context))),
  });

  const Feed = defineEndpoint({
    doc: { ...doc, summary: "Get recent articles from users you follow" },
    params: { query: page },
    view: ArticlesView,
    async call(ep) {
      const who = me(ep.context);
      return ArticlesView(await listArticles(db, { ...ep.params.query, followedBy: who }, who));
    },
  });

  const GetArticle = defineEndpoint({
    doc: { ...doc, summary: "Get an article" },
    params: bySlug,
    errors: { NotFound },
    view: ArticleView,
    call: async (ep) => ArticleView(await found(ep.params.path.slug, viewer(ep.context))),
  });

  const CreateArticle = defineEndpoint({
    doc: { ...doc, summary: "Create an article" },
    params: {
      json: t.body(
        {
          article: v.object({
            title: Text("title", 256),
            description: Text("description", 1024),
            body: Text("body", 100_000),
            tagList: v.optional(Tags, []),
          }),
        },
        { require: true },
      ),
    },
    status: 201,
    view: ArticleView,
    async call(ep) {
      const who = me(ep.context);
      const { title, description, body, tagList } = ep.params.json.article;
      const [created] = await withSlug(title, (slug) =>
        db.query<{ slug: string }>(
          `INSERT INTO articles (slug, title, description, body, tag_list, author_id)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING slug`,
          [slug, title, description, body, tagList, who],
        ),
      );
      ep.header("location", `/api/articles/${created!.slug}`);
      return ArticleView(await found(created!.slug, who));
    },
  });

  const UpdateArticle = defineEndpoint({
    doc: { ...doc, summary: "Update an article" },
    params: {
      ...bySlug,
      json: t.body(
        {
          article: v.object({
            title: v.optional(Text("title", 256)),
            description: v.optional(Text("description", 1024)),
            body: v.optional(Text("body", 100_000)),
          }),
        },
        { require: true },
      ),
    },
    errors: { NotFound, Forbidden },
    view: ArticleView,
    async call(ep) {
      const who = me(ep.context);
      const article = await owned(ep.params.path.slug, who);
      const { title, description, body } = ep.params.json.article;
      // A new title makes a new slug.
      const update = (slug: string) =>
        db.query<{ slug: string }>(
          `UPDATE articles SET slug = $2, title = coalesce($3, title), description = coalesce($4, description),
             body = coalesce($5, body), updated_at = now() WHERE id = $1 RETURNING slug`,
          [article.id, slug, title ?? null, description ?? null, body ?? null],
        );
      const [{ slug }] = (
        title !== undefined && title !== article.title
          ? await withSlug(title, update)
          : await update(article.slug)
      ) as [{ slug: string }];
      return ArticleView(await found(slug, who));
    },
  });

  const DeleteArticle = defineEndpoint({
    doc: { ...doc, summary: "Delete an article" },
    params: bySlug,
    errors: { NotFound, Forbidden },
    status: 204,
    async call(ep) {
      const article = await owned(ep.params.path.slug, me(ep.context));
      await db.query("DELETE FROM articles WHERE id = $1", [article.id]);
    },
  });

  const favorite = (on: boolean) =>
    defineEndpoint({
      doc: { tags: ["Favorites"], summary: on ? "Favorite an article" : "Unfavorite an article" },
      params: bySlug,
      errors: { NotFound },
      view: ArticleView,
      async call(ep) {
        const who = me(ep.context);
        const article = await found(ep.params.path.slug, who);
        if (on)
          await db.query(
            "INSERT INTO favorites (user_id, article_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            [who, article.id],
          );
        else
          await db.query("DELETE FROM favorites WHERE user_id = $1 AND article_id = $2", [who, article.id]);
        return ArticleView(await found(article.slug, who));
      },
    });

  const optional = { use: [auth.maybeUser] } as const;
  const required = { use: [auth.requireUser] } as const;
  return {
    getArticlesFeed: ["GET", "/articles/feed", Feed, required],
    getArticles: ["GET", "/articles", ListArticles, optional],
    createArticle: ["POST", "/articles", CreateArticle, required],
    getArticle: ["GET", "/articles/:slug", GetArticle, optional],
    updateArticle: ["PUT", "/articles/:slug", UpdateArticle, required],
    deleteArticle: ["DELETE", "/articles/:slug", DeleteArticle, required],
    createArticleFavorite: ["POST", "/articles/:slug/favorite", favorite(true), required],
    deleteArticleFavorite: ["DELETE", "/articles/:slug/favorite", favorite(false), required],
  } as const satisfies Record<string, RouteEntry>;
}
