import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { serve } from "../../src/adapters/node.ts";
import { setCookie } from "../../src/cookie/mod.ts";
import { addressMatcher, canonicalAddress, clientAddress, forwardedOrigin } from "../../src/http/ip.ts";
import { isHost } from "../../src/http/request-target.ts";
import { createApp, createContext } from "../../src/mod.ts";
import { NO_RUNTIME } from "../../src/runtime/runtime.ts";

describe("client addresses", () => {
  test("strict parsing: dotted-decimal IPv4 only; IPv6 canonical; mapped IPv4 unwrapped", () => {
    for (const good of ["127.0.0.1", "0.0.0.0", "255.255.255.255", "10.1.20.3"]) {
      assert.equal(canonicalAddress(good), good);
    }
    for (const bad of [
      "127.1",
      "0x7f.0.0.1",
      "0177.0.0.1",
      "127.0.0.01",
      "256.0.0.1",
      "1.2.3.4.5",
      " 1.2.3.4",
      "1.2.3.4 ",
      "2130706433",
      "",
      "unknown",
      "_hidden",
      "1::2::3",
      "[::1]",
      "::1]",
      "gggg::1",
      "example.com",
    ]) {
      assert.equal(canonicalAddress(bad), undefined, JSON.stringify(bad));
    }
    assert.equal(canonicalAddress("2001:DB8:0:0:0:0:0:1"), "2001:db8::1");
    assert.equal(canonicalAddress("::1"), "::1");
    assert.equal(canonicalAddress("fe80::1%eth0"), "fe80::1");
    assert.equal(canonicalAddress("::ffff:127.0.0.1"), "127.0.0.1");
    assert.equal(canonicalAddress("::FFFF:7f00:1"), "127.0.0.1");
  });

  test("ranges: IPv4 and IPv6 CIDR, single addresses; a bad range throws", () => {
    const match = addressMatcher(["10.0.0.0/8", "192.168.1.7", "2001:db8::/32", "::1", "172.16.0.0/12"]);
    for (const inside of [
      "10.0.0.1",
      "10.255.255.255",
      "192.168.1.7",
      "2001:db8:ffff::1",
      "::1",
      "172.31.9.9",
    ]) {
      assert.ok(match(inside), inside);
    }
    for (const outside of ["11.0.0.1", "192.168.1.8", "2001:db9::1", "::2", "172.32.0.1", "127.0.0.1"]) {
      assert.ok(!match(outside), outside);
    }
    assert.ok(addressMatcher(["0.0.0.0/0"])("8.8.8.8"));
    assert.ok(addressMatcher(["10.1.2.0/23"])("10.1.3.200"));
    assert.ok(!addressMatcher(["10.1.2.0/23"])("10.1.4.0"));
    for (const bad of ["10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/x", "localhost", "::1/129", "127.1/8"]) {
      assert.throws(() => addressMatcher([bad]), /Invalid address or range/, bad);
    }
  });

  const trusted = addressMatcher(["127.0.0.1", "10.0.0.0/8"]);
  const withHeaders = (headers: Record<string, string>) => ({ headers: new Headers(headers) });

  test("X-Forwarded-For is followed only from trusted peers, right to left, to the first untrusted hop", () => {
    const spoofed = withHeaders({ "x-forwarded-for": "1.1.1.1, 203.0.113.9, 10.0.0.2" });
    assert.equal(clientAddress("127.0.0.1", spoofed, trusted, "x-forwarded-for"), "203.0.113.9");
    assert.equal(clientAddress("198.51.100.4", spoofed, trusted, "x-forwarded-for"), "198.51.100.4");
    assert.equal(clientAddress("127.0.0.1", spoofed, undefined, "x-forwarded-for"), "127.0.0.1");
    assert.equal(clientAddress("127.0.0.1", withHeaders({}), trusted, "x-forwarded-for"), "127.0.0.1");
    // Garbage where an address should be: the last trusted hop is all that is known.
    const garbage = withHeaders({ "x-forwarded-for": "203.0.113.9, not-an-ip, 10.0.0.2" });
    assert.equal(clientAddress("127.0.0.1", garbage, trusted, "x-forwarded-for"), "10.0.0.2");
    // All hops trusted: the leftmost.
    const internal = withHeaders({ "x-forwarded-for": "10.0.0.9, 10.0.0.2" });
    assert.equal(clientAddress("::ffff:127.0.0.1", internal, trusted, "x-forwarded-for"), "10.0.0.9");
  });

  test("Forwarded (RFC 7239): for= with quotes, brackets and ports", () => {
    const headers = withHeaders({
      forwarded:
        'for=198.51.100.17;proto=https, for="[2001:db8:cafe::17]:4711";by=10.0.0.1, for=10.0.0.3:8080',
    });
    assert.equal(clientAddress("127.0.0.1", headers, trusted, "forwarded"), "2001:db8:cafe::17");
    assert.equal(
      clientAddress(
        "127.0.0.1",
        withHeaders({ forwarded: "for=unknown, for=10.0.0.3" }),
        trusted,
        "forwarded",
      ),
      "10.0.0.3",
    );
  });

  test("Forwarded: an element repeating a parameter (RFC 7239 §4) is invalid: it names no address, never the first nor the last", () => {
    const at = (peer: string, forwarded: string) =>
      clientAddress(peer, withHeaders({ forwarded }), trusted, "forwarded");
    // 0.2 took the first `for`, 0.3.0 before the fix the last: either lets a client choose its address.
    assert.equal(at("127.0.0.1", "for=6.6.6.6;for=1.2.3.4"), "127.0.0.1", "no hop: the trusted peer");
    assert.equal(at("127.0.0.1", "for=203.0.113.9, for=6.6.6.6;FOR=1.2.3.4"), "127.0.0.1");
    assert.equal(at("127.0.0.1", "for=6.6.6.6;proto=http;proto=https, for=10.0.0.3"), "10.0.0.3");
    // The vectors 0.2 answered, answered the same.
    assert.equal(at("127.0.0.1", "for=203.0.113.9"), "203.0.113.9");
    assert.equal(at("127.0.0.1", "for=6.6.6.6, for=203.0.113.9"), "203.0.113.9");
    assert.equal(at("127.0.0.1", 'for="203.0.113.9:80";proto=https'), "203.0.113.9");
    assert.equal(at("127.0.0.1", "proto=https"), "127.0.0.1", "an element without for");
    assert.equal(at("198.51.100.4", "for=203.0.113.9"), "198.51.100.4", "an untrusted peer");
    assert.equal(at("127.0.0.1", "for=10.0.0.9, for=10.0.0.3"), "10.0.0.9", "all trusted: the leftmost");
    const origin = forwardedOrigin(
      "127.0.0.1",
      withHeaders({ forwarded: "for=203.0.113.9;host=a.example;host=evil.example;proto=https" }),
      trusted,
      "forwarded",
      isHost,
    );
    assert.deepEqual(origin, { scheme: undefined, host: undefined }, "an invalid element tells no origin");
  });

  test("the public origin: read only from a trusted peer; Forwarded's element where the client is found; X-Forwarded-* aligned or last", () => {
    const origin = (peer: string, headers: Record<string, string>, header: "forwarded" | "x-forwarded-for") =>
      forwardedOrigin(peer, withHeaders(headers), trusted, header, isHost);
    const chain = {
      forwarded:
        'for=203.0.113.9;proto=https;host="Public.Example", for=10.0.0.3;proto=http;host=internal:8080',
    };
    assert.deepEqual(origin("127.0.0.1", chain, "forwarded"), { scheme: "https", host: "public.example" });
    assert.equal(origin("198.51.100.4", chain, "forwarded"), undefined, "an untrusted peer tells nothing");
    // The client wrote an element of its own (left): the one the outermost trusted proxy wrote wins.
    const spoofed = {
      forwarded: "for=1.1.1.1;proto=http;host=evil.example, for=203.0.113.9;proto=https;host=a.example",
    };
    assert.deepEqual(origin("10.0.0.2", spoofed, "forwarded"), { scheme: "https", host: "a.example" });
    const aligned = {
      "x-forwarded-for": "203.0.113.9, 10.0.0.3",
      "x-forwarded-proto": "https, http",
      "x-forwarded-host": "public.example, internal",
    };
    assert.deepEqual(origin("127.0.0.1", aligned, "x-forwarded-for"), {
      scheme: "https",
      host: "public.example",
    });
    const overwritten = { "x-forwarded-for": "1.1.1.1, 203.0.113.9", "x-forwarded-proto": "https" };
    assert.deepEqual(origin("127.0.0.1", overwritten, "x-forwarded-for"), {
      scheme: "https",
      host: undefined,
    });
    const bad = { "x-forwarded-proto": "ftp", "x-forwarded-host": "a.example@evil.example" };
    assert.deepEqual(origin("127.0.0.1", bad, "x-forwarded-for"), { scheme: undefined, host: undefined });
    const port = { "x-forwarded-host": "a.example:99999" };
    assert.deepEqual(origin("127.0.0.1", port, "x-forwarded-for"), { scheme: undefined, host: undefined });
  });

  test('ctx.request.url behind a trusted proxy; Secure "auto" cookies follow it; the connection\'s URL otherwise', async () => {
    const make = (peer: string) => {
      const app = createApp({
        trustProxy: { addresses: ["127.0.0.1"] },
        runtime: { ...NO_RUNTIME, peer: () => peer },
      });
      app.get("/where", (ctx) => {
        setCookie(ctx, "a", "1", { secure: "auto" });
        return new Response(ctx.request.url);
      });
      return app;
    };
    const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "public.example:8443" };
    const proxied = await make("127.0.0.1").request("http://10.1.1.1:3000/where?x=%20", { headers });
    assert.equal(await proxied.text(), "https://public.example:8443/where?x=%20");
    assert.match(proxied.headers.get("set-cookie")!, /; Secure;/);
    const direct = await make("198.51.100.4").request("http://10.1.1.1:3000/where", { headers });
    assert.equal(await direct.text(), "http://10.1.1.1:3000/where");
    assert.doesNotMatch(direct.headers.get("set-cookie")!, /Secure/);
  });

  test("ctx.request.ip: undefined in-process, given by createContext", async () => {
    const app = createApp();
    app.get("/", (ctx) => ctx.response.write(String(ctx.request.ip)));
    assert.equal(await (await app.request("/")).text(), "undefined");
    assert.equal(
      createContext(new Request("http://localhost/"), { ip: "203.0.113.1" }).request.ip,
      "203.0.113.1",
    );
    assert.throws(() => createApp({ trustProxy: { addresses: ["nope"] } }), /Invalid address or range/);
  });

  test("on a Node server: the socket's address, and X-Forwarded-For only with trustProxy", async () => {
    const answer = (
      ctx: { request: { ip: string | undefined } },
      out: { response: { write(s: string): void } },
    ) => out.response.write(String(ctx.request.ip));
    const plain = createApp();
    plain.get("/", (ctx) => answer(ctx, ctx));
    const proxied = createApp({ trustProxy: { addresses: ["127.0.0.0/8", "::1"] } });
    proxied.get("/", (ctx) => answer(ctx, ctx));
    const a = await serve(plain, { port: 0 });
    const b = await serve(proxied, { port: 0 });
    try {
      const spoof = { headers: { "x-forwarded-for": "203.0.113.50, 198.51.100.2" } };
      assert.equal(await (await fetch(a.url)).text(), "127.0.0.1");
      assert.equal(await (await fetch(a.url, spoof)).text(), "127.0.0.1");
      assert.equal(await (await fetch(b.url, spoof)).text(), "198.51.100.2");
      assert.equal(await (await fetch(b.url)).text(), "127.0.0.1");
    } finally {
      await a.close();
      await b.close();
    }
  });
});
