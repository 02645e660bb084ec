// A small JSON API: users and their posts, with path, query, JSON and form params, declared errors
// and views. Data lives in memory.
import * as v from "valibot";
import { createApp, defineEndpoint, defineError, defineView, t } from "../../src/mod.ts";

interface User {
  id: number;
  name: string;
  email: string;
}
interface Post {
  id: number;
  userId: number;
  title: string;
  body: string;
}

const users = new Map<number, User>([[1, { id: 1, name: "Ada", email: "ada@example.com" }]]);
const posts = new Map<number, Post>([[1, { id: 1, userId: 1, title: "Hello", body: "First post" }]]);
let nextUserId = 2;
let nextPostId = 2;

const UserView = defineView({
  json: (user: User) => user,
  text: (user) => `#${user.id} ${user.name} <${user.email}>`,
});
const UserList = defineView({
  json: (list: { users: User[]; offset: number; limit: number }) => list,
  text: (list) => list.users.map((u) => `#${u.id} ${u.name}`).join("\n"),
});
const PostView = defineView({
  json: (post: Post) => post,
  html: (post) => `<article><h1>${escapeHtml(post.title)}</h1><p>${escapeHtml(post.body)}</p></article>`,
});

/** Shared by every endpoint that looks a user up. */
export const UserNotFound = defineError("UserNotFound", 404, {
  payload: { id: t.int32() },
  message: (p) => `No user with id ${p.id}`,
});

export const ListUsers = defineEndpoint({
  params: {
    query: {
      offset: v.optional(t.int32(), 0),
      limit: v.optional(v.pipe(t.int32(), v.minValue(1), v.maxValue(100)), 10),
    },
  },
  call(ep) {
    const { offset, limit } = ep.params.query;
    return UserList({ users: [...users.values()].slice(offset, offset + limit), offset, limit });
  },
});

export const GetUser = defineEndpoint({
  params: { path: { id: t.int32() } },
  errors: { UserNotFound },
  call(ep) {
    const user = users.get(ep.params.path.id);
    if (!user) throw new ep.errors.UserNotFound({ id: ep.params.path.id });
    return UserView(user);
  },
});

export const CreateUser = defineEndpoint({
  params: {
    json: t.body(
      { user: { name: v.pipe(v.string(), v.trim(), v.minLength(1)), email: v.pipe(v.string(), v.email()) } },
      { require: true },
    ),
  },
  errors: {
    EmailTaken: {
      code: 409,
      payload: { email: v.string() },
      message: (p) => `${p.email} is already registered`,
    },
  },
  call(ep) {
    const { name, email } = ep.params.json.user;
    if ([...users.values()].some((u) => u.email === email)) throw new ep.errors.EmailTaken({ email });
    const user = { id: nextUserId++, name, email };
    users.set(user.id, user);
    ep.status(201);
    ep.header("location", `/users/${user.id}`);
    return UserView(user);
  },
});

export const CreatePost = defineEndpoint({
  params: {
    path: { id: t.int32() },
    // An HTML form posts `post[title]=…&post[body]=…`; a script may send the same as JSON.
    form: { post: { title: v.pipe(v.string(), v.minLength(1)), body: v.string() } },
    json: { post: { title: v.pipe(v.string(), v.minLength(1)), body: v.string() } },
  },
  errors: { UserNotFound, MissingBody: { code: 415, message: "Send the post as a form or as JSON" } },
  call(ep) {
    const user = users.get(ep.params.path.id);
    if (!user) throw new ep.errors.UserNotFound({ id: ep.params.path.id });
    const input = ep.params.form?.post ?? ep.params.json?.post;
    if (!input) throw new ep.errors.MissingBody();
    const post = { id: nextPostId++, userId: user.id, ...input };
    posts.set(post.id, post);
    // A browser form gets sent to the new post; an API client gets it back.
    if (ep.params.form) return ep.redirect(`/posts/${post.id}`, 303);
    ep.status(201);
    return PostView(post);
  },
});

export const GetPost = defineEndpoint({
  params: { path: { id: t.int32() } },
  errors: { PostNotFound: 404 },
  call(ep) {
    const post = posts.get(ep.params.path.id);
    if (!post) throw new ep.errors.PostNotFound();
    return PostView(post);
  },
});

export const app = createApp();
app.on("/users", (r) => {
  r.get("/", ListUsers);
  r.post("/", CreateUser);
  r.get("/:id", GetUser);
  r.post("/:id/posts", CreatePost);
});
app.get("/posts/:id", GetPost);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
