// `ctx.session`: the session `session()` (portico/session) opened for a request, kept beside the
// context (nothing is written onto it), typed by `Register["session"]`.

/** A request's session: its data, and the two operations a login and a logout need. */
export interface Session<TData = Record<string, unknown>> {
  /**
   * The data (empty for a new session, or one that was tampered with, expired or no longer matches the
   * schema). Change it or replace it: it is saved when the response is sent.
   */
  data: Partial<TData>;
  /** True when the request brought no valid session. */
  readonly isNew: boolean;
  /**
   * Gives the session a new identity, keeping its data: call it at login, so that an identity an
   * attacker planted before (session fixation) is not the one that becomes authenticated. With a store,
   * the old id is deleted; a copy of a sealed cookie still opens (see `session({ revocation })`).
   */
  regenerate(): void;
  /**
   * Ends the session: its data emptied, its cookie deleted, and with a store its id deleted there. A copy
   * of a sealed cookie still opens until it expires: `sessions.revoke(subject)` ends those.
   */
  destroy(): void;
}

const sessions = new WeakMap<object, Session<unknown>>();

/** Attaches a request's session to its context (the session middleware does). */
export function attachSession(ctx: object, session: Session<unknown>): void {
  sessions.set(ctx, session);
}

/** A context's session, or `undefined` when no session middleware ran for it. */
export function sessionOf(ctx: object): Session<unknown> | undefined {
  return sessions.get(ctx);
}
