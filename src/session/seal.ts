// Sealing a session into its cookie: AES-256-GCM through Web Crypto (encrypted and authenticated), a key
// per secret derived with HKDF-SHA256, the cookie's name as additional data (a value sealed for one
// cookie does not open as another). The first secret seals; every one opens, for rotation.
import { fromBase64Url, toBase64Url } from "../http/base64.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const PREFIX = "s1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Seals and opens one cookie's values with a list of secrets. */
export interface Sealer {
  /** The sealed value: `s1.` and base64url of the nonce, the ciphertext and its tag. */
  seal(plain: string): Promise<string>;
  /** The plain text, or `undefined` for a value no secret opens (tampered, truncated, foreign). */
  open(sealed: string): Promise<string | undefined>;
}

/** A sealer for the cookie `name`; each secret at least 32 characters. */
export function sealer(secrets: readonly string[], name: string): Sealer {
  if (secrets.length === 0) throw new TypeError("session(): give at least one secret");
  for (const secret of secrets) {
    if (typeof secret !== "string" || secret.length < 32)
      throw new TypeError("session(): a secret must be a string of at least 32 characters");
  }
  const keys = secrets.map((secret) => derive(secret));
  const context = encoder.encode(name);
  return {
    async seal(plain) {
      const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
      const sealed = await crypto.subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: context },
        await keys[0]!,
        encoder.encode(plain),
      );
      const out = new Uint8Array(IV_BYTES + sealed.byteLength);
      out.set(iv);
      out.set(new Uint8Array(sealed), IV_BYTES);
      return PREFIX + toBase64Url(out);
    },
    async open(value) {
      const bytes = value.startsWith(PREFIX) ? fromBase64Url(value.slice(PREFIX.length)) : undefined;
      if (bytes === undefined || bytes.length < IV_BYTES + TAG_BYTES) return undefined;
      const iv = bytes.subarray(0, IV_BYTES);
      const data = bytes.subarray(IV_BYTES);
      for (const key of keys) {
        try {
          const plain = await crypto.subtle.decrypt(
            { name: "AES-GCM", iv, additionalData: context },
            await key,
            data,
          );
          return decoder.decode(plain);
        } catch {
          // Not this key's (or not authentic): the next one, if any.
        }
      }
      return undefined;
    },
  };
}

async function derive(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("portico/session v1") },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}
