// What the API answers with, as the spec shapes it: users, profiles, articles (with and without their
// body), comments, tags — each a view with its JSON schema (the OpenAPI document shows it), and the
// rows the queries give, turned into it.
import { defineView } from "portico";
import * as v from "valibot";

const Timestamp = v.pipe(v.string(), v.isoTimestamp());

const ProfileShape = v.object({
  username: v.string(),
  bio: v.string(),
  image: v.string(),
  following: v.boolean(),
});
const UserShape = v.object({
  email: v.string(),
  token: v.string(),
  username: v.string(),
  bio: v.string(),
  image: v.string(),
});
const listed = {
  slug: v.string(),
  title: v.string(),
  description: v.string(),
  tagList: v.array(v.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  favorited: v.boolean(),
  favoritesCount: v.number(),
  author: ProfileShape,
};
const ArticleShape = v.object({ ...listed, body: v.string() });
const CommentShape = v.object({
  id: v.number(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  body: v.string(),
  author: ProfileShape,
});

/** A user row (without its password hash). */
export interface UserRow {
  id: number;
  email: string;
  username: string;
  bio: string;
  image: string;
}
/** An author as a viewer sees it. */
export interface AuthorRow {
  username: string;
  bio: string;
  image: string;
  following: boolean;
}
/** An article row, with what the viewer sees of its author and favorites. */
export interface ArticleRow {
  id: number;
  slug: string;
  title: string;
  description: string;
  body?: string;
  tag_list: string[];
  created_at: Date;
  updated_at: Date;
  favorited: boolean;
  favorites_count: number;
  author: AuthorRow;
}
/** A comment row, with its author. */
export interface CommentRow {
  id: number;
  body: string;
  created_at: Date;
  updated_at: Date;
  author: AuthorRow;
}

const profile = (row: AuthorRow) => ({
  username: row.username,
  bio: row.bio,
  image: row.image,
  following: row.following,
});
const article = (row: ArticleRow) => ({
  slug: row.slug,
  title: row.title,
  description: row.description,
  tagList: row.tag_list,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  favorited: row.favorited,
  favoritesCount: row.favorites_count,
  author: profile(row.author),
});
const comment = (row: CommentRow) => ({
  id: row.id,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  body: row.body,
  author: profile(row.author),
});

export const UserView = defineView({
  schema: v.object({ user: UserShape }),
  json: ({ user, token }: { user: UserRow; token: string }) => ({
    user: { email: user.email, token, username: user.username, bio: user.bio, image: user.image },
  }),
});
export const ProfileView = defineView({
  schema: v.object({ profile: ProfileShape }),
  json: (row: AuthorRow) => ({ profile: profile(row) }),
});
export const ArticleView = defineView({
  schema: v.object({ article: ArticleShape }),
  json: (row: ArticleRow) => ({ article: { ...article(row), body: row.body ?? "" } }),
});
export const ArticlesView = defineView({
  // Listed articles leave their body out (spec 1.1.0).
  schema: v.object({ articles: v.array(v.object(listed)), articlesCount: v.number() }),
  json: ({ rows, count }: { rows: ArticleRow[]; count: number }) => ({
    articles: rows.map(article),
    articlesCount: count,
  }),
});
export const CommentView = defineView({
  schema: v.object({ comment: CommentShape }),
  json: (row: CommentRow) => ({ comment: comment(row) }),
});
export const CommentsView = defineView({
  schema: v.object({ comments: v.array(CommentShape) }),
  json: (rows: CommentRow[]) => ({ comments: rows.map(comment) }),
});
export const TagsView = defineView({
  schema: v.object({ tags: v.array(v.string()) }),
  json: (tags: string[]) => ({ tags }),
});
