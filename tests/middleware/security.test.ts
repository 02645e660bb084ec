import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  CrossSiteRequestRefused,
  cors,
  cspNonce,
  csrf,
  NONCE,
  secureHeaders,
} from "../../src/middleware/mod.ts";
import { createApp } from "../../src/mod.ts";

describe("cors()", () => {
  const app = createApp();
  app.use(cors({ origin: ["https://app.example"], credentials: true, exposeHeaders: ["X-Total"] }));
  app.get("/data", (ctx) => ctx.response.write("data"));
  app.post("/data", (ctx) => ctx.response.write("posted"));

  test("an allowed origin is echoed, with credentials, exposed headers and Vary: Origin", async () => {
    const res = await app.request("/data", { headers: { origin: "https://app.example" } });
    assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example");
    assert.equal(res.headers.get("access-control-allow-credentials"), "true");
    assert.equal(res.headers.get("access-control-expose-headers"), "X-Total");
    assert.equal(res.headers.get("vary"), "Origin");
  });

  test("any other origin is never reflected (also null, and look-alikes)", async () => {
    for (const origin of [
      "https://evil.example",
      "null",
      "https://app.example.evil.example",
      "https://APP.example",
    ]) {
      const res = await app.request("/data", { headers: { origin } });
      assert.equal(res.headers.get("access-control-allow-origin"), null, origin);
      assert.equal(res.headers.get("access-control-allow-credentials"), null, origin);
      assert.equal(res.headers.get("vary"), "Origin");
      assert.equal(await res.text(), "data");
    }
  });

  test("preflight: 204 with methods, the asked headers (names only), max age; refused origins get none", async () => {
    const res = await app.request("/data", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-token, bad header, x\u00e9",
      },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example");
    assert.equal(res.headers.get("access-control-allow-methods"), "GET, HEAD, PUT, POST, DELETE, PATCH");
    assert.equal(res.headers.get("access-control-allow-headers"), "content-type, x-token");
    assert.equal(res.headers.get("access-control-max-age"), "600");
    assert.equal(res.headers.get("vary"), "Origin, Access-Control-Request-Headers");
    const refused = await app.request("/data", {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    assert.equal(refused.status, 204);
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    assert.equal(refused.headers.get("access-control-allow-methods"), null);
  });

  test('"*" is answered as "*" without Vary; with credentials it is refused at setup; bad lists throw', async () => {
    const open = createApp();
    open.use(cors({ origin: "*" }));
    open.get("/", () => {});
    const res = await open.request("/", { headers: { origin: "https://any.example" } });
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("vary"), null);
    assert.throws(() => cors({ origin: "*", credentials: true }), /cannot be used with credentials/);
    assert.throws(() => cors({ origin: [], allowHeaders: ["x\r\ny"] }), /invalid allowHeaders/);
  });

  test("a function decides per request; its answer is the only way an origin is echoed", async () => {
    const fn = createApp();
    fn.use(cors({ origin: (origin) => origin.endsWith(".trusted.example") }));
    fn.get("/", () => {});
    const yes = await fn.request("/", { headers: { origin: "https://a.trusted.example" } });
    const no = await fn.request("/", { headers: { origin: "https://trusted.example.evil" } });
    assert.equal(yes.headers.get("access-control-allow-origin"), "https://a.trusted.example");
    assert.equal(no.headers.get("access-control-allow-origin"), null);
  });

  test("maxAge: sent as given (0 included) on preflights; anything but whole non-negative seconds throws", async () => {
    const preflight = { origin: "https://app.example", "access-control-request-method": "PUT" };
    for (const [maxAge, sent] of [
      [0, "0"],
      [7200, "7200"],
    ] as const) {
      const custom = createApp();
      custom.use(cors({ origin: ["https://app.example"], maxAge }));
      custom.get("/", () => {});
      const res = await custom.request("/", { method: "OPTIONS", headers: preflight });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get("access-control-max-age"), sent);
    }
    for (const maxAge of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      assert.throws(
        () => cors({ origin: "*", maxAge }),
        { name: "TypeError", message: "cors(): maxAge must be whole seconds" },
        String(maxAge),
      );
  });

  test("exposeHeaders: listed on simple responses to an allowed origin only; never on preflights; checked", async () => {
    const exposing = createApp();
    exposing.use(cors({ origin: ["https://app.example"], exposeHeaders: ["X-Total", "X-Page"] }));
    exposing.get("/", () => {});
    const allowed = await exposing.request("/", { headers: { origin: "https://app.example" } });
    assert.equal(allowed.headers.get("access-control-expose-headers"), "X-Total, X-Page");
    assert.equal(allowed.headers.get("access-control-allow-credentials"), null);
    const refused = await exposing.request("/", { headers: { origin: "https://evil.example" } });
    assert.equal(refused.headers.get("access-control-expose-headers"), null);
    const preflight = await exposing.request("/", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET" },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get("access-control-expose-headers"), null);
    // Without exposeHeaders there is no such header at all.
    const plain = createApp();
    plain.use(cors({ origin: ["https://app.example"] }));
    plain.get("/", () => {});
    const res = await plain.request("/", { headers: { origin: "https://app.example" } });
    assert.equal(res.headers.get("access-control-allow-origin"), "https://app.example");
    assert.equal(res.headers.get("access-control-expose-headers"), null);
    assert.throws(() => cors({ origin: [], exposeHeaders: ["X-Ok", "x y"] }), {
      name: "TypeError",
      message: 'cors(): invalid exposeHeaders entry "x y"',
    });
    assert.throws(() => cors({ origin: [], allowMethods: ["GET", "GE T"] }), {
      name: "TypeError",
      message: 'cors(): invalid allowMethods entry "GE T"',
    });
  });

  test("a preflight needs OPTIONS and Access-Control-Request-Method; one asking no headers is allowed none", async () => {
    const preflightApp = createApp();
    preflightApp.use(cors({ origin: ["https://app.example"], allowMethods: ["GET", "POST"] }));
    preflightApp.get("/", (ctx) => ctx.response.write("got"));
    const headers = { origin: "https://app.example", "access-control-request-method": "POST" };
    // A GET carrying the header is an ordinary request: the handler answers.
    const get = await preflightApp.request("/", { headers });
    assert.equal(get.status, 200);
    assert.equal(await get.text(), "got");
    assert.equal(get.headers.get("access-control-allow-methods"), null);
    // OPTIONS without it is not a preflight: the app answers it (its Allow), not cors().
    const options = await preflightApp.request("/", {
      method: "OPTIONS",
      headers: { origin: headers.origin },
    });
    assert.equal(options.headers.get("allow"), "GET, HEAD, OPTIONS");
    assert.equal(options.headers.get("access-control-allow-methods"), null);
    assert.equal(options.headers.get("access-control-max-age"), null);
    // A preflight that asks for no request headers gets no Access-Control-Allow-Headers.
    const bare = await preflightApp.request("/", { method: "OPTIONS", headers });
    assert.equal(bare.status, 204);
    assert.equal(bare.headers.get("access-control-allow-methods"), "GET, POST");
    assert.equal(bare.headers.get("access-control-allow-headers"), null);
    assert.equal(bare.headers.get("vary"), "Origin, Access-Control-Request-Headers");
    // A fixed allowHeaders list is sent as is, whatever is asked (and the answer does not vary with it);
    // an empty one sends none.
    for (const [allowHeaders, sent] of [
      [["Content-Type", "X-Token"], "Content-Type, X-Token"],
      [[], null],
    ] as const) {
      const fixed = createApp();
      fixed.use(cors({ origin: ["https://app.example"], allowHeaders }));
      fixed.get("/", () => {});
      const res = await fixed.request("/", {
        method: "OPTIONS",
        headers: { ...headers, "access-control-request-headers": "x-other" },
      });
      assert.equal(res.status, 204);
      assert.equal(res.headers.get("access-control-allow-headers"), sent);
      assert.equal(res.headers.get("vary"), "Origin");
    }
  });
});

describe("csrf()", () => {
  const app = createApp();
  const guard = csrf({ trustedOrigins: ["https://admin.example"] });
  app.use(guard);
  app.get("/form", (ctx) => ctx.response.write("form"));
  app.post("/transfer", (ctx) => ctx.response.write("done"));
  const post = (headers: Record<string, string>) =>
    app.request("http://bank.example/transfer", { method: "POST", headers, body: "amount=1" });

  test("declares its error: 403 CrossSiteRequestRefused", () => {
    assert.equal(guard.errors.CrossSiteRequestRefused, CrossSiteRequestRefused);
    assert.equal(CrossSiteRequestRefused.code, 403);
  });

  test("Sec-Fetch-Site decides first: same-origin and none pass, cross-site and same-site are refused", async () => {
    assert.equal((await post({ "sec-fetch-site": "same-origin" })).status, 200);
    assert.equal((await post({ "sec-fetch-site": "none" })).status, 200);
    for (const site of ["cross-site", "same-site"]) {
      const res = await post({ "sec-fetch-site": site, accept: "application/json" });
      assert.equal(res.status, 403);
      assert.equal(
        ((await res.json()) as { error: { name: string } }).error.name,
        "Cross Site Request Refused",
      );
    }
  });

  test("without Sec-Fetch-Site, Origin must be the request's host or trusted; none at all passes", async () => {
    assert.equal((await post({ origin: "http://bank.example" })).status, 200);
    assert.equal(
      (await post({ origin: "https://admin.example", "sec-fetch-site": "cross-site" })).status,
      200,
    );
    assert.equal((await post({ origin: "https://evil.example" })).status, 403);
    assert.equal((await post({ origin: "null" })).status, 403);
    assert.equal((await post({ origin: "http://bank.example.evil.example" })).status, 403);
    // Host and port: the same host name on another port is another site. (The scheme is not compared:
    // behind a TLS proxy without trustProxy the request's URL says http while the browser's says https.)
    assert.equal((await post({ origin: "http://bank.example:8080" })).status, 403);
    assert.equal((await post({ origin: "https://bank.example" })).status, 200);
    assert.equal((await post({})).status, 200);
  });

  test("whatever the Content-Type (upper case, padded, JSON, none): the check is on the method", async () => {
    for (const type of [
      "APPLICATION/X-WWW-FORM-URLENCODED",
      " text/plain ",
      "multipart/form-data; boundary=x",
      "application/json",
    ]) {
      assert.equal((await post({ "content-type": type, "sec-fetch-site": "cross-site" })).status, 403, type);
    }
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      const res = await app.request("http://bank.example/transfer", {
        method,
        headers: { "sec-fetch-site": "cross-site" },
      });
      assert.equal(res.status, 403, method);
    }
  });

  test("safe methods pass from anywhere", async () => {
    const res = await app.request("http://bank.example/form", {
      headers: { "sec-fetch-site": "cross-site" },
    });
    assert.equal(res.status, 200);
  });

  test("HEAD and OPTIONS are safe too: never refused, whoever sends them", async () => {
    for (const method of ["HEAD", "OPTIONS"]) {
      const res = await app.request("http://bank.example/form", {
        method,
        headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
      });
      assert.notEqual(res.status, 403, method);
    }
  });

  test("allowSameSite: same-site passes (sibling subdomains), cross-site is still refused", async () => {
    const siblings = createApp();
    siblings.use(csrf({ allowSameSite: true }));
    siblings.post("/transfer", (ctx) => ctx.response.write("done"));
    const send = (site: string) =>
      siblings.request("http://bank.example/transfer", {
        method: "POST",
        headers: { "sec-fetch-site": site },
      });
    assert.equal((await send("same-site")).status, 200);
    assert.equal((await send("same-origin")).status, 200);
    assert.equal((await send("cross-site")).status, 403);
  });
});

describe("secureHeaders()", () => {
  test("safe defaults on every response, errors and 404s included", async () => {
    const app = createApp();
    app.use(secureHeaders());
    app.get("/", () => {});
    for (const path of ["/", "/missing"]) {
      const res = await app.request(path);
      assert.equal(res.headers.get("strict-transport-security"), "max-age=31536000; includeSubDomains");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.equal(res.headers.get("x-frame-options"), "SAMEORIGIN");
      assert.equal(res.headers.get("referrer-policy"), "no-referrer");
      assert.equal(res.headers.get("cross-origin-opener-policy"), "same-origin");
      assert.equal(res.headers.get("x-xss-protection"), "0");
      assert.equal(res.headers.get("content-security-policy"), null);
    }
  });

  test("a CSP with a fresh nonce per request, the same one handlers read", async () => {
    const app = createApp();
    app.use(
      secureHeaders({
        frameOptions: "DENY",
        strictTransportSecurity: false,
        contentSecurityPolicy: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", NONCE],
          frameAncestors: ["'none'"],
        },
      }),
    );
    app.get("/", (ctx) => ctx.response.write(cspNonce(ctx)));
    const a = await app.request("/");
    const b = await app.request("/");
    const nonceA = await a.text();
    assert.match(nonceA, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(
      a.headers.get("content-security-policy"),
      `default-src 'self'; script-src 'self' 'nonce-${nonceA}'; frame-ancestors 'none'`,
    );
    assert.notEqual(await b.text(), nonceA);
    assert.equal(a.headers.get("x-frame-options"), "DENY");
    assert.equal(a.headers.get("strict-transport-security"), null);
    assert.throws(
      () => secureHeaders({ contentSecurityPolicy: { scriptSrc: ["'self'; report-uri x"] } }),
      /holds/,
    );
  });
});
