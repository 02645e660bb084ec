import { fromBase64Url, toBase64Url } from "../http/base64.ts";
import { type CookieContext, getCookie, setCookie } from "./cookie.ts";
import type { CookieOptions } from "./serialize.ts";

/** One secret, or several for rotation: the first signs, any verifies. Each at least 32 characters. */
export type CookieSecrets = string | readonly string[];

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (typeof secret !== "string" || secret.length < 32) {
      throw new TypeError("A cookie secret must be a string of at least 32 characters");
    }
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    if (keys.size < 64) keys.set(secret, key);
  }
  return key;
}

function secretList(secrets: CookieSecrets): readonly string[] {
  const list = typeof secrets === "string" ? [secrets] : secrets;
  if (list.length === 0) throw new TypeError("Give at least one cookie secret");
  for (const secret of list) keyFor(secret);
  return list;
}

// An HMAC-SHA256 signature is 32 bytes: 43 base64url characters, nothing else.
function signatureOf(text: string): Uint8Array<ArrayBuffer> | undefined {
  return text.length === 43 ? fromBase64Url(text) : undefined;
}

/**
 * Sets a cookie signed with HMAC-SHA256 (Web Crypto): `value.signature`. The value stays readable by
 * the client; the signature makes any change detectable.
 *
 * @example
 * await setSignedCookie(ctx, "session", userId, [process.env.COOKIE_SECRET!]);
 */
export async function setSignedCookie(
  ctx: CookieContext,
  name: string,
  value: string,
  secrets: CookieSecrets,
  options?: CookieOptions,
): Promise<void> {
  const key = await keyFor(secretList(secrets)[0]!);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${name}=${value}`)));
  setCookie(ctx, name, `${value}.${toBase64Url(signature)}`, options);
}

/**
 * Reads a signed cookie: its value when a secret verifies it, `false` when it was tampered with (or
 * signed with a retired secret), `undefined` when absent. The signature covers the name too, so a
 * value cannot be moved to another cookie.
 *
 * @example
 * const session = await getSignedCookie(ctx, "session", [current, previous]);
 * if (session === false) throw new ep.errors.Unauthorized();
 */
export async function getSignedCookie(
  ctx: CookieContext,
  name: string,
  secrets: CookieSecrets,
): Promise<string | false | undefined> {
  const list = secretList(secrets);
  const signed = getCookie(ctx, name);
  if (signed === undefined) return undefined;
  const dot = signed.lastIndexOf(".");
  const signature = dot < 0 ? undefined : signatureOf(signed.slice(dot + 1));
  if (signature === undefined) return false;
  const value = signed.slice(0, dot);
  const data = encoder.encode(`${name}=${value}`);
  for (const secret of list) {
    if (await crypto.subtle.verify("HMAC", await keyFor(secret), signature, data)) return value;
  }
  return false;
}
