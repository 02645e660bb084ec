import assert from "node:assert/strict";
import { test } from "node:test";
import { checkTarget, type RequestTarget } from "../../src/http/request-target.ts";

const target = (url: string, host: string | null, scheme?: "http" | "https"): RequestTarget => {
  const checked = checkTarget(url, host, "GET", scheme);
  assert.equal(typeof checked, "object", String(checked));
  return checked as RequestTarget;
};

test("the connection's scheme, when the server gives it, replaces an absolute-form target's", () => {
  assert.deepEqual(target("https://evil.example/x?a=1", "good.example", "http"), {
    url: "http://good.example/x?a=1",
    path: "/x",
    query: "a=1",
    rewritten: true,
    asterisk: false,
  });
  assert.equal(target("HTTPS://good.example/x", "good.example", "http").url, "http://good.example/x");
  assert.equal(target("https://good.example/x", "good.example", "https").rewritten, false);
});

test("an ordinary target is taken as it is: no scheme given, or the same one", () => {
  for (const scheme of [undefined, "http"] as const) {
    const checked = target("http://good.example/a/b", "good.example", scheme);
    assert.equal(checked.rewritten, false);
    assert.equal(checked.url, "http://good.example/a/b");
  }
});

test("an empty Host is refused, before and after a valid one was seen", () => {
  for (const host of ["", "127.0.0.1:3000", ""]) {
    const checked = checkTarget(`http://${host}/a`, host, "GET");
    assert.equal(typeof checked, host === "" ? "string" : "object", JSON.stringify(host));
  }
});

test("dot segments never pass as they are, plain or encoded, on the ordinary path's own check", () => {
  for (const [sent, path] of [
    ["/a/../b", "/b"],
    ["/a/./b", "/a/b"],
    ["/a/%2e%2e/b", "/b"],
    ["/a/.%2E/b", "/b"],
    ["/a/%2E/b", "/a/b"],
    ["/..", "/"],
    ["/a/..", "/"],
    ["/a/b/..?x=1", "/a/"],
    ["/a/.", "/a/"],
  ] as const) {
    const checked = target(`http://good.example${sent}`, "good.example");
    assert.equal(checked.path, path, sent);
    assert.ok(!/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(new URL(checked.url).pathname), `${sent}: ${checked.url}`);
  }
  // Dots inside a segment are ordinary characters.
  assert.equal(target("http://good.example/a/..b/c.", "good.example").path, "/a/..b/c.");
});
