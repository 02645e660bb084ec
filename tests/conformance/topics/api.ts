import * as v from "valibot";
import { defineEndpoint, defineError, t } from "../../../src/mod.ts";
import { Echo, UserView } from "../helpers.ts";
import type { Topic } from "../suite.ts";
import { apiBodyCases } from "./api-bodies.ts";
import { apiParamCases } from "./api-params.ts";

const users = new Map([[1, { id: 1, name: "Ada" }]]);
const UserGone = defineError("UserGone", 410, { message: "This user left" });

const GetUser = defineEndpoint({
  params: {
    path: { id: t.int32() },
    query: { offset: v.optional(t.int32()), limit: v.optional(t.int32(), 10) },
  },
  errors: {
    UserNotFound: 404,
    UserGone,
    Invalid: { code: 422, payload: { field: v.string() }, message: (p) => `Invalid ${p.field}` },
  },
  before: [(ep) => ep.header("X-Before", "1")],
  after: [(ep) => ep.header("X-After", String(ep.params.query.limit))],
  call(ep) {
    const id = ep.params.path.id;
    if (id === 410) throw new ep.errors.UserGone();
    if (id === 422) throw new ep.errors.Invalid({ field: "id" });
    const user = users.get(id);
    if (!user) throw new ep.errors.UserNotFound();
    return UserView(user);
  },
});

const CreateUser = defineEndpoint({
  params: {
    json: t.body(
      { user: { name: v.pipe(v.string(), v.minLength(1)), email: v.pipe(v.string(), v.email()) } },
      { require: true },
    ),
  },
  call(ep) {
    ep.status(201);
    return Echo(ep.params.json.user);
  },
});

const Search = defineEndpoint({
  params: {
    query: {
      q: v.string(),
      tags: v.optional(t.array(t.string()), []),
      page: v.optional(t.group({ size: v.optional(t.int32(), 20), number: v.optional(t.int32(), 1) })),
      active: v.optional(t.bool()),
      since: v.optional(t.date()),
      at: v.optional(t.epoch()),
      big: v.optional(t.int64()),
      ratio: v.optional(t.float()),
      userId: v.optional(t.key("user_id", t.int32())),
    },
  },
  call: (ep) =>
    Echo({
      ...ep.params.query,
      since: ep.params.query.since?.toISOString(),
      at: ep.params.query.at?.toISOString(),
      big: ep.params.query.big?.toString(),
    }),
});

const Submit = defineEndpoint({
  params: {
    form: { user: { name: v.string(), age: t.int32() }, tags: v.optional(t.array(t.string())) },
    json: { user: { name: v.string(), age: t.int32() }, tags: v.optional(t.array(t.string())) },
  },
  call(ep) {
    const body = ep.params.form ?? ep.params.json;
    return Echo({ source: ep.params.form ? "form" : ep.params.json ? "json" : "none", ...body });
  },
});

const Redirect = defineEndpoint({
  params: { query: { to: v.string() } },
  call(ep) {
    ep.redirect(ep.params.query.to);
    ep.header("x-after-redirect", "still running");
  },
});

const Views = defineEndpoint({
  params: { query: { mode: v.picklist(["last", "return", "both", "none", "response"]) } },
  call(ep) {
    const mode = ep.params.query.mode;
    if (mode === "last" || mode === "both") {
      ep.view(Echo({ view: "first" }));
      ep.view(Echo({ view: "second" }));
    }
    if (mode === "return" || mode === "both") return Echo({ view: "returned" });
    if (mode === "response") return new Response("plain response");
    return undefined;
  },
});

/** Endpoints: params from the four sources, declared errors, views, redirects. */
export const api: Topic = {
  name: "Endpoints",
  routes(app) {
    app.get("/api/users/:id", GetUser);
    app.post("/api/users", CreateUser);
    app.get("/api/search", Search);
    app.post("/api/submit", Submit);
    app.get("/api/redirect", Redirect);
    app.get("/api/views", Views);
  },
  cases: [...apiParamCases, ...apiBodyCases],
};
