// Client addresses at their edges, called directly: what a header can smuggle into an address, ranges
// that look at the bytes an IPv4 address is mapped to, and the hops of `Forwarded` and `X-Forwarded-*`.
// Found by the mutation run (bench/MUTATION.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addressMatcher,
  canonicalAddress,
  clientAddress,
  clientNetwork,
  forwardedOrigin,
  type ProxyHeader,
} from "../../src/http/ip.ts";
import { isHost } from "../../src/http/request-target.ts";

const trusted = addressMatcher(["10.0.0.0/8"]);
const PROXY = "10.0.0.1";
const request = (headers: Record<string, string>) => ({ headers: new Headers(headers) });
const origin = (header: ProxyHeader, headers: Record<string, string>) =>
  forwardedOrigin(PROXY, request(headers), trusted, header, isHost);

test("an address is the whole text: nothing after a bracket, the zone dropped and nothing else", () => {
  for (const smuggled of ["::1]/x[", "::1]:80", "::1]@evil.example", "1::]/[2"]) {
    assert.equal(canonicalAddress(smuggled), undefined, smuggled);
  }
  assert.equal(canonicalAddress("fe80::1%eth0"), "fe80::1");
  assert.equal(canonicalAddress("FE80::A%25"), "fe80::a");
  assert.equal(canonicalAddress("1:2:3:4:5:6:7:8"), "1:2:3:4:5:6:7:8");
});

test("ranges see an IPv4 address as its mapped IPv6 bytes (::ffff:a.b.c.d)", () => {
  const v4 = "1.2.3.4";
  assert.equal(addressMatcher(["::/88"])(v4), false, "byte 10 is 0xff");
  assert.equal(addressMatcher(["::ff00:0:0/96"])(v4), false, "byte 11 is 0xff");
  assert.throws(
    () => addressMatcher(["::ffff:0:0/95"]),
    /Invalid address or range/,
    "a mapped range is IPv4's",
  );
  assert.equal(addressMatcher(["1.2.3.0/24"])(v4), true);
  // An address without `::` has all eight groups.
  assert.equal(addressMatcher(["1:2:3:4:5:6:7:8"])("1:2:3:4:5:6:7:8"), true);
  assert.equal(addressMatcher(["1:2:3:4::/64"])("1:2:3:4:5:6:7:8"), true);
  assert.equal(clientNetwork("1:2:3:4:5:6:7:8"), "1:2:3:4::/64");
});

test("Forwarded: an empty parameter is no parameter; a quote is removed only from both ends", () => {
  const client = (value: string) => clientAddress(PROXY, request({ forwarded: value }), trusted, "forwarded");
  assert.equal(client("for=1.2.3.4;;proto=https"), "1.2.3.4");
  assert.equal(client("for=1.2.3.4;;;proto=https"), "1.2.3.4");
  assert.equal(client("for=1.2.3.4; ; ;proto=https"), "1.2.3.4");
  assert.equal(client("for=1.2.3.4;secure;proto=https"), "1.2.3.4");
  assert.equal(client('for="1.2.3.4"'), "1.2.3.4");
  assert.equal(client('for=1.2.3.4"'), PROXY, "a half-quoted address is no address");
  assert.deepEqual(origin("forwarded", { forwarded: 'for=1.2.3.4;host=example.com"' }), {
    scheme: undefined,
    host: undefined,
  });
  assert.deepEqual(origin("forwarded", { forwarded: 'for=1.2.3.4;host="example.com";proto="http"' }), {
    scheme: "http",
    host: "example.com",
  });
  assert.equal(origin("forwarded", {}), undefined, "no Forwarded header: nothing told");
});

test("X-Forwarded-*: http is a scheme too; a list that names an unreadable hop keeps the nearest value", () => {
  assert.deepEqual(origin("x-forwarded-for", { "x-forwarded-for": "1.2.3.4", "x-forwarded-proto": "http" }), {
    scheme: "http",
    host: undefined,
  });
  const told = origin("x-forwarded-for", {
    "x-forwarded-for": "1.2.3.4, garbage",
    "x-forwarded-proto": "http, https",
    "x-forwarded-host": "a.example, b.example",
  });
  assert.deepEqual(told, { scheme: "https", host: "b.example" });
});
