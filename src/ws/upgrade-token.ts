// A browser cannot set headers on a websocket upgrade, so auth middleware (`jwt()`, `bearerAuth()` with
// `websocketToken`) may take the token from what a browser can send: the offered subprotocols
// (`new WebSocket(url, ["bearer", "bearer.<token>"])`) or the `access_token` query parameter (RFC 6750
// §2.3). The subprotocol entries are then the middleware's: the channel's own subprotocol is chosen
// among the others, and the marker (`bearer`) is answered when nothing else was offered, since a browser
// fails a handshake that answers none of what it offered. The token is never answered, and never quoted
// in a refusal.
import type { Context } from "../context/context.ts";

/** Where an upgrade request may carry a token: its offered subprotocols, or its query. */
export type UpgradeTokenSource = "protocol" | "query";

// The subprotocol that marks a token offered as `bearer.<token>`.
const TOKEN_PROTOCOL = "bearer";

const TOKEN_PREFIX = `${TOKEN_PROTOCOL}.`;
// The upgrades whose offered token entries an auth middleware took.
const carrying = new WeakSet<object>();

/**
 * The token an upgrade request carries where `sources` allow (the subprotocols first), or `undefined`
 * (not an upgrade, or none there).
 */
export function upgradeToken(
  ctx: Context<unknown>,
  sources: readonly UpgradeTokenSource[],
): string | undefined {
  if (sources.length === 0 || ctx.request.header("upgrade")?.toLowerCase() !== "websocket") return undefined;
  if (sources.includes("protocol")) {
    const offered = ctx.request.header("sec-websocket-protocol");
    const offers = offered === null ? [] : offered.split(",").map((entry) => entry.trim());
    const entry = offers.find((offer) => offer.startsWith(TOKEN_PREFIX));
    if (entry !== undefined && offers.includes(TOKEN_PROTOCOL)) {
      carrying.add(ctx);
      const token = entry.slice(TOKEN_PREFIX.length);
      if (token !== "") return token;
    }
  }
  if (sources.includes("query")) {
    const token = new URLSearchParams(ctx.request.query).get("access_token");
    if (token !== null && token !== "") return token;
  }
  return undefined;
}

/** Whether an offered subprotocol may carry a token (never quoted back). */
export function mayCarryToken(offer: string): boolean {
  return offer.startsWith(TOKEN_PREFIX);
}

/**
 * The offered subprotocols an upgrade's channel chooses from: all, or, when a middleware took a token
 * from them, the others (`carried`: the marker to answer when none is left).
 */
export function channelOffers(
  ctx: Context<unknown>,
  offers: readonly string[],
): {
  readonly offers: readonly string[];
  readonly carried: string | undefined;
} {
  if (!carrying.has(ctx)) return { offers, carried: undefined };
  const left = offers.filter((offer) => offer !== TOKEN_PROTOCOL && !offer.startsWith(TOKEN_PREFIX));
  return { offers: left, carried: TOKEN_PROTOCOL };
}
