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
import type { StandardSchemaV1 } from "../schema/standard.ts";
import {
  credentials,
  quoted,
  refuse,
  tokenOf,
  tokenSources,
  Unauthorized,
  type WebsocketTokenOption,
} from "./auth.ts";
import { declaring } from "./declaring.ts";
import { type JwtAlgorithm, signingKey } from "./jwt-keys.ts";
import {
  type ClaimsOf,
  JwtInvalid,
  jose,
  KeysUnavailable,
  type VerifyJwtOptions,
  verifier,
} from "./jwt-verify.ts";

export { Unauthorized, type UpgradeTokenSource, type WebsocketTokenOption } from "./auth.ts";
export type { JwtAlgorithm, JwtKeys } from "./jwt-keys.ts";
export {
  type ClaimsOf,
  type JwtClaims,
  JwtInvalid,
  KeysUnavailable,
  type VerifyJwtOptions,
} from "./jwt-verify.ts";

/**
 * Verifies a compact JWS token: signature (by an allowed algorithm and the given keys), `exp` (required
 * unless `requireExpiry: false`), `nbf`, `iat` (never in the future; not older than `maxTokenAge`),
 * audience, issuer, and the claims schema. Gives the claims, or throws {@link JwtInvalid} saying why, or
 * {@link KeysUnavailable} (a 503, with `Retry-After`) when a `jwks` URL could not be fetched or read.
 *
 * @example
 * try {
 *   const claims = await verifyJwt(token, { jwks: "https://id.example/jwks.json", algorithms: ["ES256"] });
 * } catch (error) {
 *   if (error instanceof JwtInvalid) console.log("refused:", error.reason);
 *   else if (error instanceof KeysUnavailable) console.log("try again later");
 *   else throw error;
 * }
 */
export async function verifyJwt<TSchema extends StandardSchemaV1 | undefined = undefined>(
  token: string,
  options: VerifyJwtOptions<TSchema>,
): Promise<ClaimsOf<TSchema>> {
  return verifier(options)(token);
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

/**
 * Signs claims into a compact JWS token, with `iat` set to now. Give `expiresIn`: {@link jwt} and
 * {@link verifyJwt} refuse a token without `exp` unless told `requireExpiry: false`.
 *
 * @example
 * const token = await signJwt({ sub: user.id }, { secret: process.env.JWT_SECRET!, expiresIn: 3600 });
 */
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
  /**
   * Where a browser's websocket upgrade may carry the token instead (`"protocol"`: the subprotocols
   * `bearer` and `bearer.<jwt>`; `"query"`: `access_token`), read only when the header is absent.
   */
  readonly websocketToken?: WebsocketTokenOption;
  /** The realm named in `WWW-Authenticate` (default `"api"`). */
  readonly realm?: string;
  /** The name of the OpenAPI security scheme (default `"bearerAuth"`, or the scheme's name). */
  readonly schemeName?: string;
  /**
   * Where the failure goes when a `jwks` URL could not be fetched or read (the request is answered 503
   * `KeysUnavailable`): once per failed fetch, however many requests waited on it. Default `console.error`.
   */
  readonly onKeysError?: (error: unknown) => void;
};

/** The {@link jwt} middleware, and the verified claims of the requests it let through. */
export type JwtMiddleware<TClaims, TOptional extends boolean> = DeclaringMiddleware<{
  readonly Unauthorized: typeof Unauthorized;
  /** Declared (and possible) only with a `jwks` URL. */
  readonly KeysUnavailable: typeof KeysUnavailable;
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
 * (`error="invalid_token"` and why, when one was sent); a token without `exp` is invalid unless
 * `requireExpiry: false`. With a `jwks` URL, a key set that cannot be fetched or read (in `jwksTimeoutMs`)
 * is the declared 503 `KeysUnavailable` with `Retry-After: 5`, and nothing of the key server's answer.
 * Declares its OpenAPI security scheme.
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
  const remote = "jwks" in options && (typeof options.jwks === "string" || options.jwks instanceof URL);
  const report = reporter(options.onKeysError, remote ? String(options.jwks) : "");
  const sources = tokenSources(options.websocketToken, "jwt()");
  const middleware = declaring(
    async (ctx, next) => {
      const sent = ctx.request.header(header);
      const token = tokenOf(ctx, sent, credentials(sent, scheme), sources);
      if (token === undefined) {
        if (options.optional === true && sent === null) return next();
        return refuse(challenge);
      }
      try {
        verified.set(ctx, { claims: await verify(token), token });
      } catch (error) {
        if (error instanceof JwtInvalid) return refuse(challenge, error.message);
        if (error instanceof KeysUnavailable) report((error as { cause?: unknown }).cause);
        throw error;
      }
      return next();
    },
    {
      errors: remote ? { Unauthorized, KeysUnavailable } : { Unauthorized },
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

// Requests waiting on one fetch all fail with its error: it is reported once.
function reporter(
  onKeysError: ((error: unknown) => void) | undefined,
  url: string,
): (error: unknown) => void {
  const reported = new WeakSet<object>();
  const report =
    onKeysError ??
    ((error: unknown) => console.error(`portico/jwt: the key set ${url} could not be read`, error));
  return (error) => {
    if (typeof error === "object" && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
    }
    report(error);
  };
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
