import { toBase64Url } from "../http/base64.ts";
import type { Context } from "./context.ts";

// Each request's CSP nonce, kept beside the context: `secureHeaders()` puts it in the policy, and the
// pages Portico writes itself (the error page, `docsPage()`) put it on their inline styles and scripts.
const nonces = new WeakMap<object, string>();

/**
 * This request's CSP nonce (base64url, 128 random bits), made on first use: put it on inline scripts,
 * `<script nonce="${cspNonce(ctx)}">`.
 */
export function cspNonce(ctx: Context<unknown>): string {
  let nonce = nonces.get(ctx);
  if (nonce === undefined) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    nonce = toBase64Url(bytes);
    nonces.set(ctx, nonce);
  }
  return nonce;
}

/** This request's nonce if one was made (a policy names it), else `undefined`. */
export function nonceIfAny(ctx: Context<unknown>): string | undefined {
  return nonces.get(ctx);
}
