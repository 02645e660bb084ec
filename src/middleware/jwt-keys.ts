// The keys a JWT is verified or signed with, for `portico/jwt`: an HMAC secret, a public key, or a key
// set, each checked at configuration against the algorithms allowed, so that no token can choose a
// family its key was not meant for (algorithm confusion) and `none` is never among them.
import type * as Jose from "jose";

/** The JWS algorithms `portico/jwt` accepts (never `none`). */
export type JwtAlgorithm =
  | "HS256"
  | "HS384"
  | "HS512"
  | "RS256"
  | "RS384"
  | "RS512"
  | "PS256"
  | "PS384"
  | "PS512"
  | "ES256"
  | "ES384"
  | "ES512"
  | "EdDSA"
  | "Ed25519";

/** Where the verification keys come from: exactly one of these. */
export type JwtKeys =
  | { readonly secret: string | Uint8Array | readonly (string | Uint8Array)[] }
  | { readonly publicKey: CryptoKey | JsonWebKey | string }
  | { readonly jwks: string | URL | { readonly keys: readonly JsonWebKey[] } };

type Verifying = Parameters<typeof Jose.jwtVerify>[1];

const HMAC = /^HS(256|384|512)$/;
const KNOWN = new Set(["HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"]);
for (const name of ["ES256", "ES384", "ES512", "EdDSA", "Ed25519"]) KNOWN.add(name);
const encoder = new TextEncoder();

const bytes = (secret: string | Uint8Array) => (typeof secret === "string" ? encoder.encode(secret) : secret);

/**
 * The key (or key finder) `jwtVerify` is given, once the options are found coherent; a `jwks` URL is
 * fetched waiting at most `timeoutMs`.
 */
export function keysFor(
  jose: typeof Jose,
  keys: JwtKeys,
  algorithms: readonly string[],
  timeoutMs: number,
): Verifying {
  const given = ["secret", "publicKey", "jwks"].filter(
    (name) => name in keys && (keys as never)[name] !== undefined,
  );
  if (given.length !== 1) throw new TypeError("portico/jwt: give exactly one of secret, publicKey or jwks");
  if (!Array.isArray(algorithms) || algorithms.length === 0)
    throw new TypeError('portico/jwt: list the accepted algorithms, as algorithms: ["HS256"]');
  for (const algorithm of algorithms)
    if (!KNOWN.has(algorithm))
      throw new TypeError(`portico/jwt: ${JSON.stringify(algorithm)} is not an accepted algorithm`);
  const symmetric = "secret" in keys;
  const wrong = algorithms.filter((algorithm) => HMAC.test(algorithm) !== symmetric);
  if (wrong.length > 0)
    throw new TypeError(
      `portico/jwt: ${wrong.join(", ")} cannot be verified with ${symmetric ? "an HMAC secret" : "a public key"}`,
    );
  if ("secret" in keys) {
    const secrets = (Array.isArray(keys.secret) ? keys.secret : [keys.secret]).map(bytes);
    if (secrets.length === 0 || secrets.some((secret) => secret.length < 32))
      throw new TypeError("portico/jwt: an HMAC secret must be at least 32 bytes (256 bits)");
    // Several secrets (rotation): the token is tried against each, the newest first.
    if (secrets.length === 1) return secrets[0]!;
    return (async (header: Jose.JWSHeaderParameters, token: Jose.FlattenedJWSInput) => {
      for (const secret of secrets) {
        try {
          await jose.flattenedVerify(token as Jose.FlattenedJWS, secret, { algorithms: [header.alg!] });
          return secret;
        } catch {}
      }
      return secrets[0]!;
    }) as Verifying;
  }
  if ("publicKey" in keys) {
    const key = keys.publicKey;
    if (isCryptoKey(key)) return key;
    // Imported for the algorithm a token names (one of those allowed), once per algorithm.
    const imported = new Map<string, Promise<CryptoKey>>();
    return ((header: Jose.JWSHeaderParameters) => {
      const algorithm = algorithms.includes(header.alg ?? "") ? header.alg! : algorithms[0]!;
      let found = imported.get(algorithm);
      if (found === undefined) {
        // A key of another family than the token's algorithm: the token is refused, not a 500.
        found = importKey(jose, key, algorithm, "public").catch(() => {
          throw new JwtKeyMismatch();
        });
        imported.set(algorithm, found);
      }
      return found;
    }) as Verifying;
  }
  const jwks = keys.jwks;
  if (typeof jwks === "string" || jwks instanceof URL) return remoteKeys(jose, new URL(jwks), timeoutMs);
  return jose.createLocalJWKSet(jwks as Jose.JSONWebKeySet) as Verifying;
}

// The token's faults when a key is looked up in a key set it has: no key, or several, for its kid and alg.
const TOKEN_FAULTS = new Set([
  "ERR_JWKS_NO_MATCHING_KEY",
  "ERR_JWKS_MULTIPLE_MATCHING_KEYS",
  "ERR_JOSE_NOT_SUPPORTED",
]);

// jose fetches the key set when it has none, when it is stale, and for an unknown kid (at most every
// 30 s); concurrent lookups share one fetch in flight. Any other failure of the lookup is the key
// server's (a timeout, a network error, not 200, not JSON, not a key set, a key that does not import).
function remoteKeys(jose: typeof Jose, url: URL, timeoutMs: number): Verifying {
  const remote = jose.createRemoteJWKSet(url, { timeoutDuration: timeoutMs });
  return (async (header: Jose.JWSHeaderParameters, token: Jose.FlattenedJWSInput) => {
    try {
      return await remote(header, token);
    } catch (error) {
      if (TOKEN_FAULTS.has((error as { code?: unknown } | null)?.code as string)) throw error;
      throw new JwksUnreadable(error);
    }
  }) as Verifying;
}

/** The key `signJwt` signs with. */
export async function signingKey(
  jose: typeof Jose,
  options: { readonly secret?: string | Uint8Array; readonly privateKey?: CryptoKey | JsonWebKey | string },
  algorithm: string,
): Promise<CryptoKey | Uint8Array> {
  if (!KNOWN.has(algorithm))
    throw new TypeError(`signJwt(): ${JSON.stringify(algorithm)} is not an accepted algorithm`);
  if ((options.secret === undefined) === (options.privateKey === undefined))
    throw new TypeError("signJwt(): give either a secret or a private key");
  if (options.secret !== undefined) {
    if (!HMAC.test(algorithm))
      throw new TypeError(`signJwt(): ${algorithm} does not sign with an HMAC secret`);
    const secret = bytes(options.secret);
    if (secret.length < 32)
      throw new TypeError("signJwt(): an HMAC secret must be at least 32 bytes (256 bits)");
    return secret;
  }
  if (HMAC.test(algorithm))
    throw new TypeError(`signJwt(): ${algorithm} signs with a secret, not a private key`);
  return importKey(jose, options.privateKey!, algorithm, "private");
}

async function importKey(
  jose: typeof Jose,
  key: CryptoKey | JsonWebKey | string,
  algorithm: string,
  kind: "public" | "private",
): Promise<CryptoKey> {
  if (typeof key === "string")
    return kind === "public" ? jose.importSPKI(key, algorithm) : jose.importPKCS8(key, algorithm);
  if (isCryptoKey(key)) return key;
  const imported: CryptoKey | Uint8Array = await jose.importJWK(key as Jose.JWK, algorithm);
  if (imported instanceof Uint8Array)
    throw new TypeError("portico/jwt: that JWK is a secret, not a key pair's key");
  return imported;
}

function isCryptoKey(key: CryptoKey | JsonWebKey | string): key is CryptoKey {
  return typeof key === "object" && typeof (key as CryptoKey).type === "string" && "usages" in key;
}

/** Thrown while verifying when the allowed algorithm a token names does not fit the configured key. */
export class JwtKeyMismatch extends Error {
  override readonly name = "JwtKeyMismatch";
}

/** Thrown while verifying when a remote key set could not be fetched or read (the failure is its cause). */
export class JwksUnreadable extends Error {
  override readonly name = "JwksUnreadable";
  constructor(cause: unknown) {
    super("The key set could not be fetched or read", { cause });
  }
}
