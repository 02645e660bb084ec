/**
 * JSON Web Tokens on [`jose`](https://github.com/panva/jose) (an optional peer dependency: install it
 * with this entry): `signJwt`, `verifyJwt`, and the `jwt()` middleware that requires a valid token and
 * gives its verified claims, typed, to the handlers it wraps. An explicit algorithm allow-list is
 * required; `none` is never accepted; a key of one family never verifies a token of another (an HMAC
 * secret never checks an RSA token, a public key never an HMAC one).
 *
 * @example
 * import { jwt, signJwt } from "portico/jwt";
 * const auth = jwt({ secret: process.env.JWT_SECRET!, algorithms: ["HS256"], claims: v.object({ sub: v.string() }) });
 * app.on("/api", (r) => r.use(auth).get("/me", (ctx) => Response.json({ id: auth.claims(ctx).sub })));
 * const token = await signJwt({ sub: "42" }, { secret: process.env.JWT_SECRET!, expiresIn: 3600 });
 *
 * @module portico/jwt
 */
import type { Context } from "../context/context.ts";
import type { DeclaringMiddleware } from "../context/route-doc.ts";
import { optionalPeer } from "../runtime/optional-peer.ts";
import type { StandardOutput, StandardSchemaV1 } from "../schema/standard.ts";
import { credentials, quoted, refuse, Unauthorized } from "./auth.ts";
import { declaring } from "./declaring.ts";
import { type JwtAlgorithm, JwtKeyMismatch, type JwtKeys, keysFor, signingKey } from "./jwt-keys.ts";

export { Unauthorized } from "./auth.ts";
export type { JwtAlgorithm, JwtKeys } from "./jwt-keys.ts";

const jose = await optionalPeer("jose", "portico/jwt", () => import("jose"));

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
  /** Seconds of clock skew allowed on `exp` and `nbf` (default 0). */
  readonly clockTolerance?: number;
  /** A schema the claims must match (valibot or any Standard Schema): they are typed by it. */
  readonly claims?: TSchema;
};

/** Why a token was refused: `expired`, `not-yet-valid`, `claim` (audience, issuer, schema), `invalid`. */
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

/** The claims a verification gives: the schema's output, or {@link JwtClaims}. */
export type ClaimsOf<TSchema> = TSchema extends StandardSchemaV1 ? StandardOutput<TSchema> : JwtClaims;

/**
 * Verifies a compact JWS token: signature (by an allowed algorithm and the given keys), `exp`, `nbf`,
 * audience, issuer, and the claims schema. Gives the claims, or throws {@link JwtInvalid} saying why.
 */
export async function verifyJwt<TSchema extends StandardSchemaV1 | undefined = undefined>(
  token: string,
  options: VerifyJwtOptions<TSchema>,
): Promise<ClaimsOf<TSchema>> {
  return verifier(options)(token);
}

function verifier<TSchema extends StandardSchemaV1 | undefined>(
  options: VerifyJwtOptions<TSchema>,
): (token: string) => Promise<ClaimsOf<TSchema>> {
  const key = keysFor(jose, options, options.algorithms);
  const checks = {
    algorithms: [...options.algorithms],
    ...(options.audience === undefined ? {} : { audience: options.audience as string | string[] }),
    ...(options.issuer === undefined ? {} : { issuer: options.issuer as string | string[] }),
    ...(options.clockTolerance === undefined ? {} : { clockTolerance: options.clockTolerance }),
  };
  return async (token) => {
    let payload: JwtClaims;
    try {
      payload = (await jose.jwtVerify(token, key, checks)).payload as JwtClaims;
    } catch (error) {
      throw refusal(error);
    }
    if (options.claims === undefined) return payload as ClaimsOf<TSchema>;
    const result = await options.claims["~standard"].validate(payload);
    if (result.issues !== undefined) throw new JwtInvalid("claim", "The token's claims are not as expected");
    return result.value as ClaimsOf<TSchema>;
  };
}

// jose's errors, as a reason a client may be told (never the key material, never the library's words
// about it). Failures that are not the token's (a JWKS that cannot be fetched) are rethrown: a 500.
function refusal(error: unknown): unknown {
  if (error instanceof JwtKeyMismatch) return new JwtInvalid("invalid", "The token is not valid");
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return new JwtInvalid("expired", "The token has expired");
    case "ERR_JWT_CLAIM_VALIDATION_FAILED": {
      const { claim, reason } = error as { claim?: string; reason?: string };
      if (claim === "nbf" && reason === "check_failed")
        return new JwtInvalid("not-yet-valid", "The token is not valid yet");
      return new JwtInvalid("claim", `The token's ${claim} claim is not accepted`);
    }
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

/** How {@link signJwt} makes a token. */
export interface SignJwtOptions {
  /** An HMAC secret of at least 32 bytes (`HS256` by default). */
  readonly secret?: string | Uint8Array;
  /** Or a private key: a `CryptoKey`, a JWK, or PKCS#8 PEM text. */
  readonly privateKey?: CryptoKey | JsonWebKey | string;
  /** The algorithm (default `HS256` with a secret; required with a private key). */
  readonly algorithm?: JwtAlgorithm;
  /** Seconds until it expires (`exp`), from now. */
  readonly expiresIn?: number;
  /** Seconds from now before which it is not valid (`nbf`). */
  readonly notBefore?: number;
  /** The audience (`aud`). */
  readonly audience?: string | readonly string[];
  /** The issuer (`iss`). */
  readonly issuer?: string;
  /** The subject (`sub`). */
  readonly subject?: string;
  /** The key id put in the header (`kid`), for verifiers holding several keys. */
  readonly keyId?: string;
}

/** Signs claims into a compact JWS token, with `iat` set to now. */
export async function signJwt(claims: Record<string, unknown>, options: SignJwtOptions): Promise<string> {
  const algorithm = options.algorithm ?? (options.secret === undefined ? undefined : "HS256");
  if (algorithm === undefined) throw new TypeError("signJwt(): give the algorithm of the private key");
  const now = Math.floor(Date.now() / 1000);
  let token = new jose.SignJWT(claims)
    .setProtectedHeader({ alg: algorithm, typ: "JWT", ...(options.keyId ? { kid: options.keyId } : {}) })
    .setIssuedAt(now);
  if (options.expiresIn !== undefined) token = token.setExpirationTime(now + options.expiresIn);
  if (options.notBefore !== undefined) token = token.setNotBefore(now + options.notBefore);
  if (options.audience !== undefined) token = token.setAudience(options.audience as string | string[]);
  if (options.issuer !== undefined) token = token.setIssuer(options.issuer);
  if (options.subject !== undefined) token = token.setSubject(options.subject);
  return token.sign(await signingKey(jose, options, algorithm));
}

/** Options of {@link jwt}: how a token is verified, where it is read, and whether it is required. */
export type JwtOptions<
  TSchema extends StandardSchemaV1 | undefined = undefined,
  TOptional extends boolean = false,
> = VerifyJwtOptions<TSchema> & {
  /** The request header holding it (default `authorization`). */
  readonly header?: string;
  /** The scheme before it (default `"Bearer"`; `"Token"` for `Authorization: Token <jwt>`; `""` for none). */
  readonly scheme?: string;
  /** Let a request without a token through (a token that is sent must still be valid). */
  readonly optional?: TOptional;
  /** The realm named in `WWW-Authenticate` (default `"api"`). */
  readonly realm?: string;
  /** The name of the OpenAPI security scheme (default `"bearerAuth"`, or the scheme's name). */
  readonly schemeName?: string;
};

/** The {@link jwt} middleware, and the verified claims of the requests it let through. */
export type JwtMiddleware<TClaims, TOptional extends boolean> = DeclaringMiddleware<{
  readonly Unauthorized: typeof Unauthorized;
}> & {
  /** The request's verified claims (`undefined` without a token, when optional). */
  claims(ctx: Context<unknown>): TOptional extends true ? TClaims | undefined : TClaims;
  /** The request's token as it was sent (`undefined` without one, when optional). */
  token(ctx: Context<unknown>): TOptional extends true ? string | undefined : string;
};

/**
 * Requires a valid JWT in `Authorization: Bearer <jwt>` (or the header and scheme given), and gives
 * its verified claims through `.claims(ctx)`, typed by the `claims` schema. A missing token (unless
 * `optional`) or an invalid one (always) is the declared 401 `Unauthorized`, with `WWW-Authenticate`
 * (`error="invalid_token"` and why, when one was sent). Declares its OpenAPI security scheme.
 *
 * @example
 * const auth = jwt({ secret: key, algorithms: ["HS256"], scheme: "Token", claims: v.object({ sub: v.string() }) });
 * r.use(auth).get("/user", (ctx) => Response.json({ id: auth.claims(ctx).sub }));
 */
export function jwt<
  const TSchema extends StandardSchemaV1 | undefined = undefined,
  const TOptional extends boolean = false,
>(options: JwtOptions<TSchema, TOptional>): JwtMiddleware<ClaimsOf<TSchema>, TOptional> {
  const verify = verifier(options);
  const header = (options.header ?? "authorization").toLowerCase();
  if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(header))
    throw new TypeError(`jwt(): the header must be a header name, got ${JSON.stringify(options.header)}`);
  const scheme = options.scheme ?? "Bearer";
  if (scheme !== "" && !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(scheme))
    throw new TypeError(`jwt(): the scheme must be an HTTP token, got ${JSON.stringify(scheme)}`);
  const challenge = `${scheme || "Bearer"} realm=${quoted(options.realm ?? "api")}`;
  const verified = new WeakMap<object, { claims: ClaimsOf<TSchema>; token: string }>();
  const middleware = declaring(
    async (ctx, next) => {
      const token = credentials(ctx.request.header(header), scheme);
      if (token === undefined) {
        if (options.optional === true && ctx.request.header(header) === null) return next();
        return refuse(challenge);
      }
      try {
        verified.set(ctx, { claims: await verify(token), token });
      } catch (error) {
        if (error instanceof JwtInvalid) return refuse(challenge, error.message);
        throw error;
      }
      return next();
    },
    {
      errors: { Unauthorized },
      security: {
        schemes: {
          [schemeName(options, header, scheme)]: documented(options.header ?? "Authorization", scheme),
        },
        ...(options.optional ? { optional: true } : {}),
      },
    },
  );
  const found = (ctx: Context<unknown>) => {
    const entry = verified.get(ctx);
    if (entry === undefined && options.optional !== true)
      throw new TypeError("jwt(): claims(ctx) was asked on a request this middleware did not check");
    return entry;
  };
  return Object.assign(middleware, {
    claims: (ctx: Context<unknown>) => found(ctx)?.claims,
    token: (ctx: Context<unknown>) => found(ctx)?.token,
  }) as JwtMiddleware<ClaimsOf<TSchema>, TOptional>;
}

function schemeName(options: { readonly schemeName?: string }, header: string, scheme: string): string {
  if (options.schemeName !== undefined) return options.schemeName;
  return header === "authorization" && scheme.toLowerCase() === "bearer" ? "bearerAuth" : scheme || header;
}

// `Authorization: Bearer` is OpenAPI's HTTP bearer scheme; anything else is a header it can only call an
// API key, described.
function documented(header: string, scheme: string) {
  if (header.toLowerCase() === "authorization" && scheme.toLowerCase() === "bearer")
    return { type: "http", scheme: "bearer", bearerFormat: "JWT" } as const;
  return {
    type: "apiKey",
    in: "header",
    name: header.toLowerCase() === "authorization" ? "Authorization" : header,
    description: scheme === "" ? "A JWT" : `\`${scheme} <JWT>\``,
  } as const;
}
