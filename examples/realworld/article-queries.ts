// The article queries: one SELECT of an article as a viewer sees it (favorites, the author and whether
// the viewer follows them), filtered for lists and the feed; and the slugs articles are found by.
import type { Queryable } from "./db.ts";
import type { ArticleRow } from "./views.ts";

// $1 is always the viewer's id (NULL for an anonymous one).
const columns = (withBody: boolean) => `a.id, a.slug, a.title, a.description, ${withBody ? "a.body, " : ""}
  a.tag_list, a.created_at, a.updated_at,
  (SELECT count(*)::int FROM favorites f WHERE f.article_id = a.id) AS favorites_count,
  EXISTS (SELECT 1 FROM favorites f WHERE f.article_id = a.id AND f.user_id = $1) AS favorited,
  json_build_object('username', u.username, 'bio', u.bio, 'image', u.image,
    'following', EXISTS (SELECT 1 FROM follows w WHERE w.follower_id = $1 AND w.followed_id = u.id)) AS author`;

/** One article by slug (with its body), or `undefined`. */
export async function articleBySlug(db: Queryable, slug: string, viewer: number | null) {
  const [row] = await db.query<ArticleRow & { author_id: number }>(
    `SELECT ${columns(true)}, a.author_id FROM articles a JOIN users u ON u.id = a.author_id WHERE a.slug = $2`,
    [viewer, slug],
  );
  return row;
}

/** What a list is filtered by. */
export interface ArticleFilter {
  readonly tag?: string | undefined;
  readonly author?: string | undefined;
  readonly favorited?: string | undefined;
  /** Only the authors this user follows (the feed). */
  readonly followedBy?: number | undefined;
  readonly limit: number;
  readonly offset: number;
}

// The WHERE clause of a filter, its placeholders numbered from `first`.
function conditions(filter: ArticleFilter, first: number) {
  const values: unknown[] = [];
  const where: string[] = [];
  const bind = (value: unknown) => `$${first + values.push(value) - 1}`;
  if (filter.tag !== undefined) where.push(`${bind(filter.tag)} = ANY (a.tag_list)`);
  if (filter.author !== undefined) where.push(`u.username = ${bind(filter.author)}`);
  if (filter.favorited !== undefined)
    where.push(`EXISTS (SELECT 1 FROM favorites f JOIN users fu ON fu.id = f.user_id
      WHERE f.article_id = a.id AND fu.username = ${bind(filter.favorited)})`);
  if (filter.followedBy !== undefined)
    where.push(
      `a.author_id IN (SELECT followed_id FROM follows WHERE follower_id = ${bind(filter.followedBy)})`,
    );
  const sql = `FROM articles a JOIN users u ON u.id = a.author_id ${where.length ? `WHERE ${where.join(" AND ")}` : ""}`;
  return { sql, values, next: first + values.length };
}

/** A page of articles (most recent first, without their bodies) and how many match in all. */
export async function listArticles(db: Queryable, filter: ArticleFilter, viewer: number | null) {
  const page = conditions(filter, 2);
  const all = conditions(filter, 1);
  const [rows, [total]] = await Promise.all([
    db.query<ArticleRow>(
      `SELECT ${columns(false)} ${page.sql} ORDER BY a.created_at DESC, a.id DESC LIMIT $${page.next} OFFSET $${page.next + 1}`,
      [viewer, ...page.values, filter.limit, filter.offset],
    ),
    db.query<{ count: number }>(`SELECT count(*)::int AS count ${all.sql}`, all.values),
  ]);
  return { rows, count: total?.count ?? 0 };
}

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/**
 * Runs `write` with a new slug for the title, again with another should the slug be taken already (one
 * chance in 36^8 for each article with the same title).
 */
export async function withSlug<T>(title: string, write: (slug: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(slugify(title));
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (attempt === 3 || code !== "23505" || constraint !== "articles_slug_key") throw error;
    }
  }
}

/** A slug from a title: lower-case words joined by dashes, and a random suffix that keeps it unique. */
function slugify(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  const suffix = Array.from(crypto.getRandomValues(new Uint8Array(8)), (byte) => ALPHABET[byte % 36]).join(
    "",
  );
  return words === "" ? suffix : `${words}-${suffix}`;
}
