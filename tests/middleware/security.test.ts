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
