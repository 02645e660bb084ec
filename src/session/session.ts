/**
 * Sessions: `app.use(session({ secret }))`, then `ctx.session.data` in any handler (`ep.context.session`
 * in endpoints). By default the data is sealed into the cookie itself (AES-256-GCM through Web Crypto:
 * the client can neither read nor change it; several secrets rotate: the first seals, all open); with
 * `store`, the cookie holds an opaque id and the data stays in a {@link KeyValueStore} (`memoryStore()`,
 * `redisStore({ url })` from `portico/middleware`). Changes are saved when the response is sent.
 * A sealed cookie is valid by itself: a copy taken before `destroy()` or `regenerate()` still opens
 * after them. To end a user's sessions everywhere, give `revocation` and call `sessions.revoke(userId)`.
 *
 * @example
 * import { session } from "portico/session";
 * const sessions = session({ secret: process.env.SESSION_SECRET!, schema: v.object({ userId: v.string() }) });
 * app.use(sessions);
 * app.post("/login", async (ctx) => {
 *   ctx.session.regenerate();
 *   sessions.of(ctx).data.userId = await checkPassword(ctx);
 * });
 *
 * @module portico/session
 */

import type { Context } from "../context/context.ts";
import { attachSession, type Session } from "../context/session.ts";
import { deleteCookie, getCookie, setCookie } from "../cookie/cookie.ts";
import { type CookieOptions, serializeCookie } from "../cookie/serialize.ts";
import { toBase64Url } from "../http/base64.ts";
import { type DeclaringMiddleware, declaring } from "../middleware/declaring.ts";
import type { KeyValueStore } from "../middleware/store.ts";
import type { StandardOutput, StandardSchemaV1 } from "../schema/standard.ts";
import { type Revocations, revocations, type SessionRevocation } from "./revocation.ts";
import { type Sealer, sealer } from "./seal.ts";

export type { Session } from "../context/session.ts";
export type { SessionRevocation } from "./revocation.ts";

/** The most a browser keeps of one cookie (RFC 6265 §6.1), name and attributes included. */
const COOKIE_LIMIT = 4096;
const ID = /^[A-Za-z0-9_-]{43}$/;

/** Options of {@link session}. */
export interface SessionOptions<TSchema extends StandardSchemaV1 | undefined = undefined> {
  /**
   * The secret(s) that seal the cookie, each at least 32 characters: the first seals, every one opens
   * (rotate by putting a new one first). Not needed with a `store`.
   */
  readonly secret?: string | readonly string[];
  /** The cookie: `name` (default `"session"`) and its attributes (default `HttpOnly`, `SameSite=Lax`, `Path=/`, `secure: "auto"`). */
  readonly cookie?: Omit<CookieOptions, "maxAge" | "expires"> & { readonly name?: string };
  /** How long a session lasts, in seconds (default 86,400: a day). */
  readonly maxAge?: number;
  /** Extend the session on every response (default `false`: it ends `maxAge` after it began). */
  readonly rolling?: boolean;
  /** Keep the data server-side, the cookie holding an opaque id. */
  readonly store?: KeyValueStore;
  /** The store's key prefix (default `"session:"`). */
  readonly prefix?: string;
  /** What the data must match (valibot or any Standard Schema): a session that does not is empty. */
  readonly schema?: TSchema;
  /**
   * Makes a subject's sessions revocable everywhere (`sessions.revoke(userId)`): its generation, kept in
   * `store`, is sealed into each session and checked on every read. Without it a copied sealed cookie
   * stays valid until it expires, whatever `destroy()` or `regenerate()` did.
   */
  readonly revocation?: SessionRevocation<SessionData<TSchema>>;
}

/** The data a session holds: the schema's output, else any record. */
export type SessionData<TSchema> = TSchema extends StandardSchemaV1
  ? StandardOutput<TSchema>
  : Record<string, unknown>;

/** The {@link session} middleware, and the request's session typed by its schema. */
export type SessionMiddleware<TData> = DeclaringMiddleware<Record<never, never>> & {
  /** The request's session (the same object as `ctx.session`), typed by the schema. */
  of(ctx: Context<unknown>): Session<TData>;
  /**
   * Ends every session of `subject` sealed until now, on every device and instance sharing the
   * revocation store: their next request has an empty session. Needs the `revocation` option.
   */
  revoke(subject: string | number): Promise<void>;
};

/** Thrown when a sealed session would not fit in a cookie: it is never dropped silently. */
export class SessionTooLarge extends Error {
  /** Says how large the sealed cookie was. */
  constructor(bytes: number) {
    super(
      `session(): the sealed session cookie is ${bytes} bytes, over the ${COOKIE_LIMIT} a browser keeps: keep less in it, or keep the data in a store (session({ store }))`,
    );
    this.name = "SessionTooLarge";
  }
}

/**
 * Opens the request's session from its cookie (a tampered, truncated, expired, oversized or foreign
 * one, or one whose data no longer matches the schema, gives an empty session and a normal answer),
 * and saves it when the response is sent: a new cookie only when there is something to keep.
 *
 * @example
 * app.use(session({ secret: [NEW_SECRET, OLD_SECRET], maxAge: 60 * 60 * 24 * 7, rolling: true }));
 * app.get("/visits", (ctx) => {
 *   const data = ctx.session.data as { visits?: number };
 *   data.visits = (data.visits ?? 0) + 1;
 *   return String(data.visits);
 * });
 */
export function session<const TSchema extends StandardSchemaV1 | undefined = undefined>(
  options: SessionOptions<TSchema>,
): SessionMiddleware<SessionData<TSchema>> {
  const { name = "session", ...attributes } = options.cookie ?? {};
  const cookie: CookieOptions = { secure: "auto", ...attributes };
  serializeCookie(name, "", cookie); // the name and attributes, checked once
  const maxAge = options.maxAge ?? 86_400;
  if (!Number.isSafeInteger(maxAge) || maxAge <= 0)
    throw new TypeError("session(): maxAge must be a positive whole number of seconds");
  const store = options.store;
  const secrets =
    options.secret === undefined
      ? []
      : typeof options.secret === "string"
        ? [options.secret]
        : options.secret;
  if (store === undefined && secrets.length === 0)
    throw new TypeError("session(): give a secret (the cookie is sealed with it), or a store");
  const seal = store === undefined ? sealer(secrets, name) : undefined;
  const prefix = options.prefix ?? "session:";
  const schema = options.schema;
  const sessions = new WeakMap<object, RequestSession>();
  const revoked: Revocations | undefined =
    options.revocation === undefined
      ? undefined
      : revocations(options.revocation as SessionRevocation<never>, maxAge);

  const read = async (raw: string | undefined, now: number): Promise<Stored | undefined> => {
    if (raw === undefined || raw.length > COOKIE_LIMIT) return undefined;
    let text: string | undefined;
    if (store !== undefined) text = ID.test(raw) ? await store.get(prefix + raw) : undefined;
    else text = await (seal as Sealer).open(raw);
    if (text === undefined) return undefined;
    let stored: Stored;
    try {
      stored = JSON.parse(text) as Stored;
    } catch {
      return undefined;
    }
    if (typeof stored !== "object" || stored === null || typeof stored.e !== "number" || stored.e <= now)
      return undefined;
    if (typeof stored.d !== "object" || stored.d === null || Array.isArray(stored.d)) return undefined;
    let data = stored.d;
    if (schema !== undefined) {
      const result = await schema["~standard"].validate(stored.d);
      if (result.issues !== undefined) return undefined;
      data = result.value as Record<string, unknown>;
    }
    const subject = revoked?.subjectOf(data);
    if (subject === undefined) return { d: data, e: stored.e };
    const valid = await (revoked as Revocations).check(
      subject,
      typeof stored.g === "string" ? stored.g : undefined,
    );
    return valid === undefined ? undefined : { d: data, e: stored.e, s: subject, g: valid.generation };
  };

  const middleware = declaring(async (ctx, next) => {
    const now = Date.now();
    const raw = getCookie(ctx, name);
    const stored = await read(raw, now);
    const state = new RequestSession(stored, store !== undefined && stored !== undefined ? raw : undefined);
    sessions.set(ctx, state);
    attachSession(ctx, state);
    await next();
    await save(ctx, state, raw, Date.now());
  }, {});

  const save = async (ctx: Context<unknown>, state: RequestSession, raw: string | undefined, now: number) => {
    if (state.destroyed) {
      if (store !== undefined && state.id !== undefined) await store.delete(prefix + state.id);
      if (raw !== undefined) deleteCookie(ctx, name, cookie);
      return;
    }
    const json = JSON.stringify(state.data);
    const changed = json !== state.snapshot || state.regenerated;
    if (state.isNew && json === "{}" && !state.regenerated) return;
    const expires = options.rolling === true || state.isNew ? now + maxAge * 1000 : state.expires;
    const lifetime = Math.max(1, Math.ceil((expires - now) / 1000));
    if (!changed && options.rolling !== true) return;
    const payload = `{"d":${json},"e":${expires}${await generation(state)}}`;
    if (store !== undefined) {
      if (state.regenerated && state.id !== undefined) await store.delete(prefix + state.id);
      const id = state.id === undefined || state.regenerated ? newId() : state.id;
      await store.set(prefix + id, payload, lifetime * 1000);
      if (id !== state.id || options.rolling === true)
        setCookie(ctx, name, id, { ...cookie, maxAge: lifetime });
      return;
    }
    const value = await (seal as Sealer).seal(payload);
    const written = serializeCookie(name, value, {
      ...cookie,
      maxAge: lifetime,
      secure: cookie.secure !== false,
    });
    if (written.length > COOKIE_LIMIT) throw new SessionTooLarge(written.length);
    setCookie(ctx, name, value, { ...cookie, maxAge: lifetime });
  };

  // The subject's generation to seal, as a JSON member: the one checked when the session was read if it
  // has the same subject and was not regenerated, else the store's now (so `revoke()` then `regenerate()`
  // keeps this device signed in). A store failure here fails the response: no cookie is sealed with a
  // generation that was not read.
  const generation = async (state: RequestSession): Promise<string> => {
    const subject = revoked?.subjectOf(state.data);
    if (subject === undefined) return "";
    const value =
      subject === state.subject && !state.regenerated
        ? state.generation
        : await (revoked as Revocations).current(subject);
    return value === undefined ? "" : `,"g":${JSON.stringify(value)}`;
  };

  return Object.assign(middleware, {
    async revoke(subject: string | number): Promise<void> {
      if (revoked === undefined)
        throw new TypeError("session(): revoke() needs the revocation option (session({ revocation }))");
      await revoked.revoke(subject);
    },
    of(ctx: Context<unknown>): Session<SessionData<TSchema>> {
      const state = sessions.get(ctx);
      if (state === undefined)
        throw new TypeError("session(): of(ctx) was asked on a request this middleware did not open");
      return state as unknown as Session<SessionData<TSchema>>;
    },
  });
}

/**
 * What a session keeps: its data, when it ends (ms since the epoch) and, with revocation, its subject's
 * generation (`s`, the subject it was checked for, is never saved).
 */
interface Stored {
  readonly d: Record<string, unknown>;
  readonly e: number;
  readonly g?: string | undefined;
  readonly s?: string | undefined;
}

class RequestSession implements Session<Record<string, unknown>> {
  data: Record<string, unknown>;
  readonly isNew: boolean;
  readonly snapshot: string;
  readonly expires: number;
  /** The store id the request brought (store sessions only). */
  readonly id: string | undefined;
  /** The subject the session was read for, and its generation then (with revocation). */
  readonly subject: string | undefined;
  readonly generation: string | undefined;
  regenerated = false;
  destroyed = false;

  constructor(stored: Stored | undefined, id: string | undefined) {
    this.data = stored === undefined ? {} : { ...stored.d };
    this.isNew = stored === undefined;
    this.snapshot = JSON.stringify(this.data);
    this.expires = stored?.e ?? 0;
    this.id = id;
    this.subject = stored?.s;
    this.generation = stored?.g;
  }

  regenerate(): void {
    this.regenerated = true;
    this.destroyed = false;
  }

  destroy(): void {
    this.destroyed = true;
    this.data = {};
  }
}

function newId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
