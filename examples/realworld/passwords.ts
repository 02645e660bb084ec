// Passwords: PBKDF2-HMAC-SHA512 with 210,000 iterations (OWASP's figure for it) and a random salt, on
// WebCrypto (the same code on Node, Bun and Deno; no native module). Stored as
// `pbkdf2-sha512$<iterations>$<salt>$<hash>`, so the cost can grow without invalidating old hashes.

const ITERATIONS = 210_000;
const encoder = new TextEncoder();
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const unb64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-512", salt, iterations },
    key,
    512,
  );
  return new Uint8Array(bits);
}

/** A new hash of a password. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2-sha512$${ITERATIONS}$${b64(salt)}$${b64(await derive(password, salt, ITERATIONS))}`;
}

/** Whether a password matches a stored hash (compared in constant time). */
export async function checkPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2-sha512" || !iterations || !salt || !hash) return false;
  const expected = unb64(hash);
  const actual = await derive(password, unb64(salt), Number(iterations));
  let diff = expected.length ^ actual.length;
  for (let i = 0; i < expected.length; i++) diff |= expected[i]! ^ (actual[i] ?? 0);
  return diff === 0;
}
