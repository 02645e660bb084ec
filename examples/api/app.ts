// A small JSON API: users and their posts, with path, query, JSON and form params, declared errors,
// views with a declared JSON shape, named routes, an OpenAPI document and a typed client
// (examples/api/client.ts). Data lives in memory.

import { createApp, defineEndpoint, defineError, defineRoutes, defineView, html, t } from "portico";
import { bodyLimit, csrf } from "portico/middleware";
import { docsPage, openapi } from "portico/openapi";
import * as v from "valibot";

interface User {
  id: number;
  name: string;
  email: string;
  joined: Date;
}
interface Post {
  id: number;
  userId: number;
  title: string;
  body: string;
}

const users = new Map<number, User>([
  [1, { id: 1, name: "Ada", email: "ada@example.com", joined: new Date("2024-01-02T03:04:05Z") }],
]);
const posts = new Map<number, Post>([[1, { id: 1, userId: 1, title: "Hello", body: "First post" }]]);
let nextUserId = 2;
let nextPostId = 2;

const UserShape = v.object({
  id: v.number(),
  name: v.string(),
  email: v.pipe(v.string(), v.email()),
  joined: v.pipe(v.string(), v.isoTimestamp()),
});
const userJson = (user: User) => ({
  id: user.id,
  name: user.name,
  email: user.email,
  joined: user.joined.toISOString(),
});
const UserView = defineView({
  schema: UserShape,
  json: userJson,
  text: (user) => `#${user.id} ${user.name} <${user.email}>`,
});
const UserList = defineView({
  schema: v.object({ users: v.array(UserShape), offset: v.number(), limit: v.number() }),
  json: (list: { users: User[]; offset: number; limit: number }) => ({
    ...list,
    users: list.users.map(userJson),
  }),
  text: (list) => list.users.map((u) => `#${u.id} ${u.name}`).join("\n"),
});
const PostView = defineView({
  schema: v.object({ id: v.number(), userId: v.number(), title: v.string(), body: v.string() }),
  json: (post: Post) => post,
  html: (post) => html`<article><h1>${post.title}</h1><p>${post.body}</p></article>`,
});

/** Shared by every endpoint that looks a user up. */
export const UserNotFound = defineError("UserNotFound", 404, {
  payload: { id: t.int32() },
  message: (p) => `No user with id ${p.id}`,
});

export const ListUsers = defineEndpoint({
  doc: { description: "Users by id, a page at a time, filtered by name or joining date.", tags: ["users"] },
  params: {
    query: {
      offset: v.optional(t.int32(), 0),
      limit: v.optional(v.pipe(t.int32(), v.minValue(1), v.maxValue(100)), 10),
      // ?filter[name]=Ada&filter[joinedAfter]=2024-01-01
      filter: v.optional(t.group({ name: v.optional(v.string()), joinedAfter: v.optional(t.date()) })),
    },
  },
  view: UserList,
  call(ep) {
    const { offset, limit, filter } = ep.params.query;
    const matching = [...users.values()].filter(
      (user) =>
        (filter?.name === undefined || user.name === filter.name) &&
        (filter?.joinedAfter === undefined || user.joined > filter.joinedAfter),
    );
    return UserList({ users: matching.slice(offset, offset + limit), offset, limit });
  },
});

export const GetUser = defineEndpoint({
  doc: { description: "One user.", tags: ["users"] },
  params: { path: { id: t.int32() } },
  errors: { UserNotFound },
  view: UserView,
  call(ep) {
    const user = users.get(ep.params.path.id);
    if (!user) throw new ep.errors.UserNotFound({ id: ep.params.path.id });
    return UserView(user);
  },
});

export const CreateUser = defineEndpoint({
  doc: {
    description: "Registers a user; an email address is registered once.",
    tags: ["users"],
    headers: { Location: "The new user's address" },
  },
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
  view: UserView,
  status: 201,
  call(ep) {
    const { name, email } = ep.params.json.user;
    if ([...users.values()].some((u) => u.email === email)) throw new ep.errors.EmailTaken({ email });
    const user = { id: nextUserId++, name, email, joined: new Date() };
    users.set(user.id, user);
    ep.header("location", `/api/users/${user.id}`);
    return UserView(user);
  },
});

export const CreatePost = defineEndpoint({
  doc: {
    description: "Adds a post by a user, from an HTML form or JSON.",
    tags: ["posts"],
    headers: { Location: "The new post's address" },
  },
  params: {
    path: { id: t.int32() },
    // An HTML form posts `post[title]=…&post[body]=…`; a script may send the same as JSON.
    form: { post: { title: v.pipe(v.string(), v.minLength(1)), body: v.string() } },
    json: { post: { title: v.pipe(v.string(), v.minLength(1)), body: v.string() } },
  },
  errors: { UserNotFound, MissingBody: { code: 415, message: "Send the post as a form or as JSON" } },
  view: PostView,
  status: 201,
  call(ep) {
    const user = users.get(ep.params.path.id);
    if (!user) throw new ep.errors.UserNotFound({ id: ep.params.path.id });
    const input = ep.params.form?.post ?? ep.params.json?.post;
    if (!input) throw new ep.errors.MissingBody();
    const post = { id: nextPostId++, userId: user.id, ...input };
    posts.set(post.id, post);
    ep.header("location", `/api/posts/${post.id}`);
    return PostView(post);
  },
});

export const GetPost = defineEndpoint({
  doc: { description: "One post.", tags: ["posts"] },
  params: { path: { id: t.int32() } },
  errors: { PostNotFound: 404 },
  view: PostView,
  call(ep) {
    const post = posts.get(ep.params.path.id);
    if (!post) throw new ep.errors.PostNotFound();
    return PostView(post);
  },
});

/** The API as a value: mounted below, and the type `createClient<typeof api>()` reads. */
export const api = defineRoutes(
  {
    listUsers: ["GET", "/users", ListUsers],
    createUser: ["POST", "/users", CreateUser],
    getUser: ["GET", "/users/:id", GetUser],
    createPost: ["POST", "/users/:id/posts", CreatePost],
    getPost: ["GET", "/posts/:id", GetPost],
  },
  // Around every route: their declared errors (403, 413) join each route's in the document and client.
  { use: [csrf(), bodyLimit(64 * 1024)] },
);

export const app = createApp();
app.mount("/api", api);

/** The OpenAPI 3.1 document, generated once from the declarations above. */
export const document = openapi(app, {
  info: {
    title: "Portico example API",
    version: "1.0.0",
    description: "Users and their posts: the example app of Portico's README.",
    contact: { name: "The Portico maintainers" },
    license: { name: "MIT", identifier: "MIT" },
  },
  servers: [{ url: "/" }],
  tags: [
    { name: "users", description: "Who writes" },
    { name: "posts", description: "What they write" },
  ],
});
app.get("/openapi.json", () => Response.json(document));
app.get("/docs", docsPage({ specUrl: "/openapi.json", title: "Portico example API" }));
