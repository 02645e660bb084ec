// Comments on an article (list, add, delete by their author) and the tags in use.
import { defineEndpoint, type RouteEntry, t } from "portico";
import * as v from "valibot";
import { type Auth, Forbidden, NotFound } from "./auth.ts";
import type { Database } from "./db.ts";
import { type CommentRow, CommentsView, CommentView, TagsView } from "./views.ts";

const doc = { tags: ["Comments"] };
const bySlug = { path: { slug: v.string() } };
const SELECT = `SELECT c.id, c.body, c.created_at, c.updated_at,
  json_build_object('username', u.username, 'bio', u.bio, 'image', u.image,
    'following', EXISTS (SELECT 1 FROM follows w WHERE w.follower_id = $1 AND w.followed_id = u.id)) AS author
  FROM comments c JOIN users u ON u.id = c.author_id`;

/** The comment and tag routes, on a database and an auth. */
export function commentRoutes(db: Database, auth: Auth) {
  const articleId = async (slug: string) => {
    const [row] = await db.query<{ id: number }>("SELECT id FROM articles WHERE slug = $1", [slug]);
    if (row === undefined) throw new NotFound();
    return row.id;
  };

  const ListComments = defineEndpoint({
    doc: { ...doc, summary: "Get comments for an article" },
    params: bySlug,
    errors: { NotFound },
    view: CommentsView,
    async call(ep) {
      const sub = auth.maybeUser.claims(ep.context)?.sub;
      const id = await articleId(ep.params.path.slug);
      const rows = await db.query<CommentRow>(
        `${SELECT} WHERE c.article_id = $2 ORDER BY c.created_at, c.id`,
        [sub === undefined ? null : Number(sub), id],
      );
      return CommentsView(rows);
    },
  });

  const AddComment = defineEndpoint({
    doc: { ...doc, summary: "Create a comment for an article" },
    params: {
      ...bySlug,
      json: t.body(
        {
          comment: v.object({
            body: v.pipe(
              v.string(),
              v.trim(),
              v.nonEmpty("body can't be blank"),
              v.maxLength(10_000, "body is too long"),
            ),
          }),
        },
        { require: true },
      ),
    },
    errors: { NotFound },
    view: CommentView,
    async call(ep) {
      const me = Number(auth.requireUser.claims(ep.context).sub);
      const id = await articleId(ep.params.path.slug);
      const [created] = await db.query<{ id: number }>(
        "INSERT INTO comments (body, article_id, author_id) VALUES ($1, $2, $3) RETURNING id",
        [ep.params.json.comment.body, id, me],
      );
      const [row] = await db.query<CommentRow>(`${SELECT} WHERE c.id = $2`, [me, created!.id]);
      return CommentView(row!);
    },
  });

  const DeleteComment = defineEndpoint({
    doc: { ...doc, summary: "Delete a comment for an article" },
    params: { path: { slug: v.string(), id: t.int32() } },
    errors: { NotFound, Forbidden },
    status: 204,
    async call(ep) {
      const me = Number(auth.requireUser.claims(ep.context).sub);
      const id = await articleId(ep.params.path.slug);
      const [comment] = await db.query<{ author_id: number }>(
        "SELECT author_id FROM comments WHERE id = $1 AND article_id = $2",
        [ep.params.path.id, id],
      );
      if (comment === undefined) throw new NotFound();
      if (comment.author_id !== me) throw new Forbidden();
      await db.query("DELETE FROM comments WHERE id = $1", [ep.params.path.id]);
    },
  });

  const GetTags = defineEndpoint({
    doc: { tags: ["Tags"], summary: "Get tags" },
    view: TagsView,
    async call() {
      const rows = await db.query<{ tag: string }>(
        "SELECT tag FROM articles, unnest(tag_list) AS tag GROUP BY tag ORDER BY count(*) DESC, tag LIMIT 100",
      );
      return TagsView(rows.map((row) => row.tag));
    },
  });

  return {
    getArticleComments: ["GET", "/articles/:slug/comments", ListComments, { use: [auth.maybeUser] }],
    createArticleComment: ["POST", "/articles/:slug/comments", AddComment, { use: [auth.requireUser] }],
    deleteArticleComment: [
      "DELETE",
      "/articles/:slug/comments/:id",
      DeleteComment,
      { use: [auth.requireUser] },
    ],
    getTags: ["GET", "/tags", GetTags],
  } as const satisfies Record<string, RouteEntry>;
}
