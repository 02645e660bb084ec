// Verifying a JWT for `portico/jwt`: the options checked once, at configuration; jose's checks (signature,
// algorithm, `exp`, `nbf`, `iat`, audience, issuer) and Portico's own (an `exp` required by default, no
// `iat` in the future); jose's errors turned into a reason a client may be told, and a key server that
// cannot be read into the declared 503 `KeysUnavailable`.
import type * as Jose from "jose";
import { defineError, type ErrorClass } from "../errors/define-error.ts";
import type { HttpError } from "../errors/http-error.ts";
import { optionalPeer } from "../runtime/optional-peer.ts";
import type { StandardOutput, StandardSchemaV1 } from "../schema/standard.ts";
import { JwksUnreadable, type JwtAlgorithm, JwtKeyMismatch, type JwtKeys, keysFor } from "./jwt-keys.ts";

/** jose, loaded once for `portico/jwt` (an optional peer: a missing one is an error that says so). */
export const jose: typeof Jose = await optionalPeer("jose", "portico/jwt", () => import("jose"));

/** The registered claims (RFC 7519 §4.1) and any others. */
export interface JwtClaims {
  /** The issuer. */
  readonly iss?: string;
  /** The subject (whom the token is about: a user id). */
  readonly sub?: string;
  /** The audience (whom the token is for). */
  readonly aud?: string | string[];
  /** When it expires (seconds since the epoch). */
  readonly exp?: number;
  /** When it becomes valid (seconds since the epoch). */
  readonly nbf?: number;
  /** When it was issued (seconds since the epoch). */
  readonly iat?: number;
  /** Its id. */
  readonly jti?: string;
  /** Any other claim. */
  readonly [claim: string]: unknown;
}

/** What a token must be to be accepted (beside a good signature by an allowed algorithm). */
export type VerifyJwtOptions<TSchema extends StandardSchemaV1 | undefined = undefined> = JwtKeys & {
  /** The accepted algorithms (`["HS256"]`, `["RS256", "ES256"]`): required, never `none`. */
  readonly algorithms: readonly JwtAlgorithm[];
  /** The audience the token must name (one of them, when several). */
  readonly audience?: string | readonly string[];
  /** The issuer the token must name (one of them, when several). */
  readonly issuer?: string | readonly string[];
  /** Seconds of clock skew allowed on `exp`, `nbf` and `iat` (default 0). */
  readonly clockTolerance?: number;
  /**
   * Whether a token must have an expiry, `exp` (default `true`, RFC 8725 §3.10): `false` accepts tokens
   * that never expire. An `exp` that is present is always checked.
   */
  readonly requireExpiry?: boolean;
  /** The oldest a token may be, in seconds since its `iat` (which it must then have); default: no limit. */
  readonly maxTokenAge?: number;
  /**
   * With a `jwks` URL: milliseconds to wait for the key set (default 5000). A key set that does not come
   * in time, cannot be fetched or is not a key set is the 503 `KeysUnavailable`.
   */
  readonly jwksTimeoutMs?: number;
  /** A schema the claims must match (valibot or any Standard Schema): they are typed by it. */
  readonly claims?: TSchema;
};

/** Why a token was refused: `expired`, `not-yet-valid`, `claim` (missing `exp`, audience, issuer, schema), `invalid`. */
export class JwtInvalid extends Error {
  /** `JwtInvalid`. */
  override readonly name = "JwtInvalid";
  /** The kind of refusal. */
  readonly reason: "expired" | "not-yet-valid" | "claim" | "invalid";
  /** A refusal, with the words a client may be told. */
  constructor(reason: JwtInvalid["reason"], message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * 503: the key set (`jwks` URL) could not be fetched or read — it did not answer in `jwksTimeoutMs`, the
 * connection failed, it did not answer 200, or not with a key set. Thrown with `Retry-After: 5` and the
 * failure as its `cause` (for logs; never rendered). Not the token's fault: it may be valid.
 */
export const KeysUnavailable: ErrorClass<undefined> = defineError("KeysUnavailable", 503, {
  message: "The keys to verify the token could not be fetched",
});

// A failed fetch is not cooled down by jose (the next request fetches again, one fetch at a time), so
// there is no cooldown to announce: a short fixed wait.
const RETRY_AFTER = "5";

/** The claims a verification gives: the schema's output, or {@link JwtClaims}. */
export type ClaimsOf<TSchema> = TSchema extends StandardSchemaV1 ? StandardOutput<TSchema> : JwtClaims;

/**
 * Makes the check of a token from its options, checked now (a `TypeError` naming the wrong one). The
 * check gives the claims, or throws {@link JwtInvalid} (the token's fault) or {@link KeysUnavailable}.
 */
export function verifier<TSchema extends StandardSchemaV1 | undefined>(
  options: VerifyJwtOptions<TSchema>,
): (token: string) => Promise<ClaimsOf<TSchema>> {
  checkOptions(options);
  const key = keysFor(jose, options, options.algorithms, options.jwksTimeoutMs ?? 5000);
  const tolerance = options.clockTolerance ?? 0;
  const checks = {
    algorithms: [...options.algorithms],
    ...(options.audience === undefined ? {} : { audience: options.audience as string | string[] }),
    ...(options.issuer === undefined ? {} : { issuer: options.issuer as string | string[] }),
    clockTolerance: tolerance,
    ...(options.requireExpiry === false ? {} : { requiredClaims: ["exp"] }),
    ...(options.maxTokenAge === undefined ? {} : { maxTokenAge: options.maxTokenAge }),
  };
  return async (token) => {
    let payload: JwtClaims;
    try {
      payload = (await jose.jwtVerify(token, key, checks)).payload as JwtClaims;
    } catch (error) {
      throw refusal(error);
    }
    // jose looks at `iat` only with maxTokenAge; a token from the future is refused always.
    if (typeof payload.iat === "number" && payload.iat > Date.now() / 1000 + tolerance)
      throw new JwtInvalid("not-yet-valid", "The token was issued in the future");
    if (options.claims === undefined) return payload as ClaimsOf<TSchema>;
    const result = await options.claims["~standard"].validate(payload);
    if (result.issues !== undefined) throw new JwtInvalid("claim", "The token's claims are not as expected");
    return result.value as ClaimsOf<TSchema>;
  };
}

function checkOptions(options: VerifyJwtOptions<StandardSchemaV1 | undefined>): void {
  const seconds = (name: "clockTolerance" | "maxTokenAge") => {
    const value = options[name];
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value >= 0))
      throw new TypeError(`portico/jwt: ${name} must be a number of seconds, 0 or more`);
  };
  seconds("clockTolerance");
  seconds("maxTokenAge");
  if (options.requireExpiry !== undefined && typeof options.requireExpiry !== "boolean")
    throw new TypeError("portico/jwt: requireExpiry must be true or false");
  const timeout = options.jwksTimeoutMs;
  if (timeout !== undefined && !(Number.isSafeInteger(timeout) && timeout >= 1))
    throw new TypeError("portico/jwt: jwksTimeoutMs must be a whole number of milliseconds, 1 or more");
}

// jose's errors, as a reason a client may be told (never the key material, never the library's words
// about it). A key set that cannot be read is not the token's fault: the 503. Anything else is rethrown.
function refusal(error: unknown): unknown {
  if (error instanceof JwtKeyMismatch) return new JwtInvalid("invalid", "The token is not valid");
  if (error instanceof JwksUnreadable) return keysUnavailable(error.cause);
  const code = (error as { code?: unknown } | null)?.code;
  const { claim, reason } = error as { claim?: string; reason?: string };
  switch (code) {
    case "ERR_JWT_EXPIRED":
      if (claim === "iat") return new JwtInvalid("expired", "The token is too old");
      return new JwtInvalid("expired", "The token has expired");
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (claim === "nbf" && reason === "check_failed")
        return new JwtInvalid("not-yet-valid", "The token is not valid yet");
      if (claim === "iat" && reason === "check_failed")
        return new JwtInvalid("not-yet-valid", "The token was issued in the future");
      if (claim === "exp" && reason === "missing")
        return new JwtInvalid("claim", "The token has no expiry (exp)");
      if (claim === "iat" && reason === "missing")
        return new JwtInvalid("claim", "The token has no issue time (iat)");
      return new JwtInvalid("claim", `The token's ${claim} claim is not accepted`);
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED":
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return new JwtInvalid("invalid", "The token is not valid");
    default:
      return error;
  }
}

function keysUnavailable(cause: unknown): HttpError {
  return Object.assign(new KeysUnavailable(), { headers: { "retry-after": RETRY_AFTER }, cause });
}
