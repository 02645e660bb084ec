// What the README's prose introduces around its samples (an endpoint named before, a store the reader
// has, a channel of an earlier block): imported by a sample that uses one of these names without
// declaring it (samples.test.ts), typed against the built package like the samples themselves.

import {
  type Context,
  createContext,
  defineChannel,
  defineEndpoint,
  defineError,
  defineRoutes,
  defineView,
  html,
  type Middleware,
} from "portico";
import { csrf } from "portico/middleware";
import * as v from "valibot";

export type User = { id: number; name: string; joined: Date };
export type Post = { title: string; renderedBody: string };
export type D1Database = { prepare(query: string): unknown };

export const UserView = defineView({
  schema: v.object({ id: v.number(), name: v.string() }),
  json: (user: User) => ({ id: user.id, name: user.name }),
});
export const GetUser = defineEndpoint({
  params: { path: { id: v.number() } },
  errors: { UserNotFound: { code: 404, payload: { id: v.number() } } },
  view: UserView,
  // As the guides' own GetUser: user 1 is Ada; any other id is not found.
  call(ep) {
    if (ep.params.path.id !== 1) throw new ep.errors.UserNotFound({ id: ep.params.path.id });
    return UserView({ id: 1, name: "Ada", joined: new Date() });
  },
});
export const CreateUser = defineEndpoint({ params: { json: { name: v.string() } }, call: () => undefined });
export const GetPost = defineEndpoint({ params: { path: { id: v.number() } }, call: () => undefined });
export const AdminHome = defineEndpoint({ call: () => undefined });
export const handler = (ctx: Context<unknown>): void => ctx.response.write("handled");
export const api = defineRoutes(
  { getUser: ["GET", "/users/:id", GetUser], createUser: ["POST", "/users", CreateUser] },
  { use: [csrf()] },
);
export const users = new Map<number, User>();
export const Unauthorized = defineError("Unauthorized", 401);
export class DbDown extends Error {}
export const readOnly: Middleware<unknown> = (_ctx, next) => next();
export const PageView = defineView({
  html: (page: { nonce: string }) => html`<script nonce="${page.nonce}"></script>`,
});
export const ReportView = defineView({ json: (report: unknown) => report });
export const upstream = "https://reports.example/latest";
export const baseUrl = "https://api.example";
export const ctxFor = (id: string): Context<unknown> =>
  createContext(new Request(`http://x/users/${id}`), { pathParams: { id } });
export async function store(_name: string, _bytes: Uint8Array): Promise<void> {}
export async function pipeToStorage(stream: ReadableStream<Uint8Array>): Promise<void> {
  await stream.pipeTo(new WritableStream());
}
export async function checkPassword(_ctx: Context<unknown>): Promise<string> {
  return "user-42";
}
const Room = defineChannel({
  params: { path: { room: v.string() }, headers: { "x-user": v.optional(v.string(), "anonymous") } },
  messages: {
    in: v.variant("type", [v.object({ type: v.literal("say"), text: v.pipe(v.string(), v.minLength(1)) })]),
    out: { from: v.string(), text: v.string() },
  },
  onMessage: (ch, message) => ch.send({ from: ch.params.headers["x-user"], text: message.text }),
});
export const live = defineRoutes({ room: ["WS", "/rooms/:room", Room] });
