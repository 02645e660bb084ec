import type { Context } from "../context/context.ts";
import { cspNonce } from "../context/csp-nonce.ts";
import type { Middleware } from "../context/handler.ts";

export { cspNonce } from "../context/csp-nonce.ts";

/** A CSP source: text, or a function of the request (such as {@link NONCE}). */
export type CspSource = string | ((ctx: Context<unknown>) => string);

/** Options of {@link secureHeaders}: each header's value, or `false` to leave it out. */
export interface SecureHeadersOptions {
  /** Default `max-age=31536000; includeSubDomains` (browsers ignore it over plain HTTP). */
  readonly strictTransportSecurity?: string | false;
  /** `X-Frame-Options`. Default `SAMEORIGIN`. */
  readonly frameOptions?: "DENY" | "SAMEORIGIN" | false;
  /** Default `no-referrer`. */
  readonly referrerPolicy?: string | false;
  /** Default `same-origin`. */
  readonly crossOriginOpenerPolicy?: string | false;
  /** Default `same-origin`. */
  readonly crossOriginResourcePolicy?: string | false;
  /** `X-Content-Type-Options: nosniff`. Default `true`. */
  readonly contentTypeOptions?: boolean;
  /**
   * Content-Security-Policy directives, camelCase (`scriptSrc: ["'self'", NONCE]`). Default: none
   * (a policy must fit the app). {@link NONCE} adds this request's nonce.
   */
  readonly contentSecurityPolicy?: Readonly<Record<string, readonly CspSource[]>> | false;
}

/** A CSP source for this request's nonce (`'nonce-…'`), for `contentSecurityPolicy` lists. */
export const NONCE = (ctx: Context<unknown>): string => `'nonce-${cspNonce(ctx)}'`;

const UNSAFE_IN_POLICY = /[;,\r\n]/;

function compilePolicy(
  directives: Readonly<Record<string, readonly CspSource[]>>,
): (ctx: Context<unknown>) => string {
  const parts = Object.entries(directives).map(([name, sources]) => {
    const directive = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    if (!/^[a-z-]+$/.test(directive)) throw new TypeError(`secureHeaders(): invalid CSP directive ${name}`);
    for (const source of sources) {
      if (typeof source === "string" && UNSAFE_IN_POLICY.test(source)) {
        throw new TypeError(`secureHeaders(): CSP source ${JSON.stringify(source)} holds ; , CR or LF`);
      }
    }
    return { directive, sources };
  });
  return (ctx) =>
    parts
      .map(({ directive, sources }) =>
        [directive, ...sources.map((source) => (typeof source === "string" ? source : source(ctx)))].join(
          " ",
        ),
      )
      .join("; ");
}

/**
 * Security headers on every response (set before the handler, which may change them): HSTS,
 * `X-Content-Type-Options`, `X-Frame-Options`, `Referrer-Policy`, cross-origin policies, the legacy
 * headers turned off, and a Content-Security-Policy with a per-request nonce when given one.
 *
 * @example
 * app.use(secureHeaders({ contentSecurityPolicy: { defaultSrc: ["'self'"], scriptSrc: ["'self'", NONCE] } }));
 */
export function secureHeaders(options: SecureHeadersOptions = {}): Middleware<unknown> {
  const fixed: [string, string][] = [];
  const add = (name: string, value: string | false | undefined, fallback: string): void => {
    const chosen = value ?? fallback;
    if (chosen === false) return;
    if (/[\r\n]/.test(chosen)) throw new TypeError(`secureHeaders(): ${name} holds CR or LF`);
    fixed.push([name, chosen]);
  };
  add("strict-transport-security", options.strictTransportSecurity, "max-age=31536000; includeSubDomains");
  add("x-frame-options", options.frameOptions, "SAMEORIGIN");
  add("referrer-policy", options.referrerPolicy, "no-referrer");
  add("cross-origin-opener-policy", options.crossOriginOpenerPolicy, "same-origin");
  add("cross-origin-resource-policy", options.crossOriginResourcePolicy, "same-origin");
  if (options.contentTypeOptions !== false) fixed.push(["x-content-type-options", "nosniff"]);
  fixed.push(
    ["origin-agent-cluster", "?1"],
    ["x-dns-prefetch-control", "off"],
    ["x-download-options", "noopen"],
    ["x-permitted-cross-domain-policies", "none"],
    ["x-xss-protection", "0"],
  );
  const policy = options.contentSecurityPolicy ? compilePolicy(options.contentSecurityPolicy) : undefined;
  return (ctx, next) => {
    const headers = ctx.response.headers;
    for (const [name, value] of fixed) headers.set(name, value);
    if (policy) headers.set("content-security-policy", policy(ctx));
    return next();
  };
}
