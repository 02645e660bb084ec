// The target check at its edges, called directly: what the ordinary path must take itself (it exists to
// be fast: a request that falls through to the full check is answered right, but slowly), and what the
// full check refuses, keeps or rewrites. Found by the mutation run (bench/MUTATION.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  anyTarget,
  checkTarget,
  isKnownHost,
  ordinaryTarget,
  type RequestTarget,
} from "../../src/http/request-target.ts";

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const checked = (url: string, host: string | null, method = "GET", scheme?: "http" | "https") => {
  const result = checkTarget(url, host, method, scheme);
  assert.equal(typeof result, "object", `${method} ${url} (Host ${host}): ${String(result)}`);
  return result as RequestTarget;
};

const refused = (url: string, host: string | null, method = "GET"): string => {
  const result = checkTarget(url, host, method);
  assert.equal(typeof result, "string", `${method} ${url} (Host ${host}) passed`);
  return result as string;
};

test("the ordinary path answers ordinary requests itself, as the full check would", () => {
  const hosts = ["good.example", "127.0.0.1:3000", "other.example:8443"];
  for (const host of hosts) checked(`http://${host}/`, host); // each now known
  const paths = ["/", "/a/b", "/users/42?x=1&y=2", "/a.b/c-d_e~f!$&'()*+,;=:@", "/q?a=/?:@!$&'()*+,;="];
  // Alternating Hosts: each is known, not only the last one seen.
  for (const method of METHODS) {
    for (const host of hosts) {
      for (const scheme of [undefined, "http", "https"] as const) {
        for (const path of paths) {
          const url = `${scheme ?? "http"}://${host}${path}`;
          const fast = ordinaryTarget(url, host, method, scheme);
          assert.ok(fast !== undefined, `the ordinary path left ${method} ${url} to the full check`);
          assert.deepEqual(fast, anyTarget(url, host, method, scheme), url);
        }
      }
    }
  }
  // Without a Host header, a known authority of the URL is taken too.
  assert.deepEqual(ordinaryTarget("http://good.example/a", null, "GET", undefined), {
    url: "http://good.example/a",
    path: "/a",
    query: "",
    rewritten: false,
    asterisk: false,
  });
  assert.equal(ordinaryTarget("http://good.example/*", "good.example", "OPTIONS", undefined)?.asterisk, true);
});

test("the ordinary path leaves alone what it does not know, and the full check decides", () => {
  const leaves = [
    ["ftp://good.example/a", "good.example", "GET"],
    ["abcgood.example/a", "good.example", "GET"],
    ["httpx//good.example/a", "good.example", "GET"],
    ["xttp://good.example/a", "good.example", "GET"],
    ["hxtp://good.example/a", "good.example", "GET"],
    ["http:/good.example/a", "good.example", "GET"],
    ["https:/good.example/a", "good.example", "GET"],
    ["http:x/good.example/a", "good.example", "GET"],
    ["http://good.example", "good.example", "GET"],
    ["http://good.example/a", "good.example", "get"],
    ["http://good.example/a", "good.example", "PURGE"],
    ["http://evil.example/a", "good.example", "GET"],
    ["http://good.example/a b", "good.example", "GET"],
    ["http://good.example/a/../b", "good.example", "GET"],
    ["http://good.example/a?b c", "good.example", "GET"],
    ["http://never-seen.example/a", "never-seen.example", "GET"],
  ] as const;
  for (const [url, host, method] of leaves) {
    assert.equal(ordinaryTarget(url, host, method, undefined), undefined, `${method} ${url}`);
  }
  for (const url of ["abcgood.example/a", "httpx//good.example/a", "http:/good.example/a"]) {
    assert.equal(refused(url, "good.example"), "Invalid request target");
  }
  assert.match(refused("ftp://good.example/a", "good.example"), /only http and https/);
  assert.match(refused("file:///etc/passwd", null), /only http and https/);
  assert.match(refused("httpss://good.example/a", "good.example"), /only http and https/);
  assert.match(refused("://good.example/a", "good.example"), /only http and https/);
  assert.match(refused("xttp://good.example/a", "good.example"), /only http and https/);
  assert.match(refused("http://good.example:99999/a", "good.example:99999"), /Invalid Host/);
  assert.match(refused("http://good.example:65536/a", null), /Invalid Host/);
  assert.equal(checked("http://good.example:65535/a", "good.example:65535").path, "/a");
});

test("methods: the seven standard ones and any upper-case token pass; anything else is refused", () => {
  for (const method of [...METHODS, "PURGE", "M-SEARCH", "X_Y"])
    checked("http://good.example/a", "good.example", method);
  for (const method of ["get", "Get", "GET ", "", "GE(T", "PÜT"]) {
    assert.match(refused("http://good.example/a", "good.example", method), /Invalid method/);
  }
});

test("the Host is compared without case; a different one rewrites the URL with the Host's", () => {
  const same = checked("http://GOOD.example/a", "good.example");
  assert.equal(same.rewritten, false);
  assert.equal(same.url, "http://GOOD.example/a");
  const other = checked("http://evil.example/a", "Good.Example");
  assert.equal(other.rewritten, true);
  assert.equal(other.url, "http://good.example/a");
  // The connection's scheme wins over an absolute-form target's, lower case included.
  const scheme = checked("https://good.example/x", "good.example", "GET", "http");
  assert.equal(scheme.rewritten, true);
  assert.equal(scheme.url, "http://good.example/x");
});

test("characters: the path and the query refuse controls, space, DEL and non-ASCII; a fragment is dropped", () => {
  for (const c of ["\u0000", "\u001f", " ", "\u007f", "é"]) {
    assert.match(refused(`http://good.example/a${c}b`, "good.example"), /percent-encoded/, JSON.stringify(c));
    assert.match(
      refused(`http://good.example/a?q=${c}`, "good.example"),
      /percent-encoded/,
      JSON.stringify(c),
    );
  }
  const printable = checked("http://good.example/a?q=!~'\"<>`{}|^", "good.example");
  assert.equal(printable.query, "q=!~'\"<>`{}|^");
  const fragment = checked("http://good.example/a?x=1#frag ment", "good.example");
  assert.equal(fragment.query, "x=1");
  assert.equal(fragment.path, "/a");
  assert.equal(checked("http://good.example/a#?x=1", "good.example").query, "");
});

test("only whole dot segments are dot segments: `...`, `%2d` and `%2ex` are ordinary", () => {
  for (const path of [
    "/a/.../b",
    "/a/..../b",
    "/a/%2d%2d/b",
    "/%2ex",
    "/a/%2D/b",
    "/a/.x",
    "/a/%2e%2e%2e/b",
  ]) {
    const target = checked(`http://good.example${path}`, "good.example");
    assert.equal(target.path, path);
    assert.equal(target.rewritten, false, path);
  }
  for (const [path, normal] of [
    ["/a/%2E%2e/b", "/b"],
    ["/a/.%2e?x", "/"],
    ["/a/..#x", "/"],
    ["/a/./", "/a/"],
  ] as const) {
    assert.equal(checked(`http://good.example${path}`, "good.example").path, normal, path);
  }
});

test("characters a URL would encode are encoded in the path it reports", () => {
  assert.equal(checked('http://good.example/a"b', "good.example").path, "/a%22b");
  assert.equal(checked("http://good.example/a<b>", "good.example").path, "/a%3Cb%3E");
  assert.equal(checked("http://good.example/a`{b}", "good.example").path, "/a%60%7Bb%7D");
  assert.equal(checked("http://good.example/a\\b", "good.example").path, "/a/b");
});

test("the Hosts found valid are remembered, at most 64 of them", () => {
  const fresh = Array.from({ length: 200 }, (_, i) => `h${i}.cache.example`);
  for (const host of fresh) checked(`http://${host}/`, host);
  const known = fresh.filter((host) => isKnownHost(host));
  assert.ok(known.length >= 1 && known.length <= 64, `${known.length} remembered`);
  assert.ok(isKnownHost(fresh.at(-1)!));
  assert.ok(!isKnownHost("never.cache.example"));
  refused("http://bad_host/", "bad_host");
  assert.ok(!isKnownHost("bad_host"), "an invalid Host is never remembered");
});
