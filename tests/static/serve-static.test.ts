// portico/static through the public API, in-process (Node's file system): types, validators, ranges,
// precompressed files, indexes, and every hostile path refused before the file system is touched; then
// beside compress, etag, csrf, logger, timeout and sessions.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { compress, csrf, etag, logger, timeout } from "../../src/middleware/mod.ts";
import { createApp } from "../../src/mod.ts";
import { session } from "../../src/session/session.ts";
import { serveStatic } from "../../src/static/serve-static.ts";
import { makeStaticFixture } from "./fixture.ts";

const fixture = makeStaticFixture();
after(() => fixture.remove());

function appWith(options: Partial<Parameters<typeof serveStatic>[0]> = {}) {
  const app = createApp();
  app.get("/assets/*", serveStatic({ root: fixture.root, ...options }));
  return app;
}

describe("serveStatic()", () => {
  const app = appWith({ maxAge: 60 });

  test("the wildcard's part is the file: type, length, validators, cache", async () => {
    const res = await app.request("/assets/css/a.css");
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "body { color: red }\n");
    assert.equal(res.headers.get("content-type"), "text/css; charset=utf-8");
    assert.equal(res.headers.get("content-length"), "20");
    assert.equal(res.headers.get("last-modified"), "Fri, 02 Jan 2026 03:04:05 GMT");
    assert.match(res.headers.get("etag")!, /^"14-[0-9a-f]+"$/);
    assert.equal(res.headers.get("cache-control"), "public, max-age=60");
    assert.equal(res.headers.get("accept-ranges"), "bytes");
    for (const [path, type] of [
      ["app.js", "text/javascript; charset=utf-8"],
      ["data.json", "application/json; charset=utf-8"],
      ["font.woff2", "font/woff2"],
      ["big.bin", "application/octet-stream"],
      ["caf%C3%A9%20menu.txt", "text/plain; charset=utf-8"],
      ["%252e", "application/octet-stream"],
    ]) {
      const found = await app.request(`/assets/${path}`);
      await found.arrayBuffer();
      assert.deepEqual([found.status, found.headers.get("content-type")], [200, type], path);
    }
  });

  test("304 for If-None-Match and If-Modified-Since; HEAD without a body", async () => {
    const first = await app.request("/assets/css/a.css");
    await first.arrayBuffer();
    const tag = first.headers.get("etag")!;
    const cached = await app.request("/assets/css/a.css", {
      headers: { "if-none-match": `W/${tag}, "other"` },
    });
    assert.deepEqual([cached.status, await cached.text(), cached.headers.get("etag")], [304, "", tag]);
    const since = await app.request("/assets/css/a.css", {
      headers: { "if-modified-since": "Fri, 02 Jan 2026 03:04:05 GMT" },
    });
    assert.equal(since.status, 304);
    const older = await app.request("/assets/css/a.css", {
      headers: { "if-modified-since": "Thu, 01 Jan 2026 00:00:00 GMT" },
    });
    assert.equal(older.status, 200);
    await older.arrayBuffer();
    const head = await app.request("/assets/big.bin", { method: "HEAD" });
    assert.deepEqual(
      [head.status, head.headers.get("content-length"), await head.text()],
      [200, String(4 * 1024 * 1024), ""],
    );
  });

  test("Range: one range 206, a suffix, an open end; several ranges the whole file; past the end 416; If-Range", async () => {
    const part = await app.request("/assets/big.bin", { headers: { range: "bytes=1000-1999" } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get("content-range"), `bytes 1000-1999/${fixture.big.length}`);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), fixture.big.subarray(1000, 2000));
    const suffix = await app.request("/assets/big.bin", { headers: { range: "bytes=-10" } });
    assert.deepEqual(Buffer.from(await suffix.arrayBuffer()), fixture.big.subarray(-10));
    const open = await app.request("/assets/big.bin", {
      headers: { range: `bytes=${fixture.big.length - 5}-` },
    });
    assert.equal((await open.arrayBuffer()).byteLength, 5);
    const several = await app.request("/assets/css/a.css", { headers: { range: "bytes=0-1,4-5" } });
    assert.deepEqual([several.status, (await several.text()).length], [200, 20]);
    const past = await app.request("/assets/css/a.css", { headers: { range: "bytes=100-" } });
    assert.deepEqual([past.status, past.headers.get("content-range")], [416, "bytes */20"]);
    const stale = await app.request("/assets/css/a.css", {
      headers: { range: "bytes=0-3", "if-range": '"old"' },
    });
    assert.deepEqual([stale.status, (await stale.text()).length], [200, 20]);
    const whole = await app.request("/assets/big.bin");
    assert.deepEqual(Buffer.from(await whole.arrayBuffer()), fixture.big, "streamed whole");
  });

  test("precompressed .br/.gz by Accept-Encoding, with Vary; the original otherwise", async () => {
    const served = appWith({ precompressed: true });
    const br = await served.request("/assets/page.txt", { headers: { "accept-encoding": "gzip, br" } });
    assert.deepEqual([br.headers.get("content-encoding"), br.headers.get("vary")], ["br", "Accept-Encoding"]);
    assert.equal(br.headers.get("content-type"), "text/plain; charset=utf-8");
    await br.arrayBuffer();
    const gz = await served.request("/assets/page.txt", { headers: { "accept-encoding": "gzip, br;q=0" } });
    assert.equal(gz.headers.get("content-encoding"), "gzip");
    await gz.arrayBuffer();
    const none = await served.request("/assets/page.txt");
    assert.deepEqual(
      [none.headers.get("content-encoding"), none.headers.get("vary")],
      [null, "Accept-Encoding"],
    );
    assert.equal(await none.text(), "compress me ".repeat(200));
    assert.notEqual(br.headers.get("etag"), none.headers.get("etag"));
  });

  test("indexes; a directory without one is a 404, never a listing; an empty file", async () => {
    assert.equal(await (await app.request("/assets/")).text(), "<h1>home</h1>");
    assert.equal(await (await app.request("/assets/docs/")).text(), "<h1>docs</h1>");
    const empty = await app.request("/assets/empty/");
    assert.deepEqual([empty.status, await empty.text()], [404, "Not Found"]);
    const noIndex = await appWith({ index: false }).request("/assets/docs/");
    assert.equal(noIndex.status, 404);
    const zero = await app.request("/assets/empty.txt");
    assert.deepEqual([zero.status, zero.headers.get("content-length"), await zero.text()], [200, "0", ""]);
    assert.equal((await app.request("/assets/missing.css")).status, 404);
  });

  test("hostile paths: encoded dot segments, backslashes, NUL, absolute paths, drive letters, overlong UTF-8 — refused", async () => {
    for (const path of [
      "/assets/..%2f..%2fsecret.txt",
      "/assets/%2e%2e%2f%2e%2e%2fsecret.txt",
      "/assets/css%2f..%2f..%2fsecret.txt",
      "/assets/..%5c..%5csecret.txt",
      "/assets/%5c..%5csecret.txt",
      "/assets/a%00.css",
      "/assets/%2fetc%2fpasswd",
      "/assets//etc/passwd",
      "/assets/C:%5cwindows",
      "/assets/%c0%ae%c0%ae%2fsecret.txt",
      "/assets/css/%0a.css",
    ]) {
      const res = await app.request(path);
      const body = await res.text();
      assert.ok(res.status === 400 || res.status === 404, `${path}: ${res.status}`);
      assert.doesNotMatch(body, /outside|SECRET/, path);
    }
    // Dot segments never reach the route: the request's path is normalised first.
    assert.equal((await app.request("/assets/%2e%2e/%2e%2e/secret.txt")).status, 404);
  });

  test("dotfiles: ignored (404) by default, denied (403) or allowed when asked", async () => {
    assert.equal((await app.request("/assets/.env")).status, 404);
    assert.equal((await app.request("/assets/.git/config")).status, 404);
    assert.equal((await appWith({ dotfiles: "deny" }).request("/assets/.env")).status, 403);
    assert.equal(await (await appWith({ dotfiles: "allow" }).request("/assets/.env")).text(), "SECRET=1");
  });

  test("symlinks: inside the root served; leaving it 404 unless followSymlinks", async () => {
    assert.equal(await (await app.request("/assets/alias.css")).text(), "body { color: red }\n");
    assert.equal((await app.request("/assets/leak.txt")).status, 404);
    assert.equal((await app.request("/assets/leakdir/x.txt")).status, 404);
    const follows = appWith({ followSymlinks: true });
    assert.equal(await (await follows.request("/assets/leak.txt")).text(), "outside the root");
  });

  test("no way of forming a path opens a file outside the root: sibling, index, extension, a folder named like the root", async () => {
    const served = appWith({ precompressed: true, extensions: [".html"] });
    for (const encoding of ["br", "gzip", "br, gzip"]) {
      const res = await served.request("/assets/bait.js", { headers: { "accept-encoding": encoding } });
      assert.deepEqual(
        [res.status, res.headers.get("content-encoding"), await res.text()],
        [200, null, "inside"],
        `${encoding}: the original, never the sibling leading outside`,
      );
    }
    for (const path of ["/assets/bait.js.br", "/assets/trap/", "/assets/trap", "/assets/clean"]) {
      const res = await served.request(path);
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(await res.text(), /outside/, path);
    }
    for (const path of ["/assets/sibling.txt", "/assets/siblingdir/key.txt"]) {
      const res = await served.request(path);
      assert.deepEqual(
        [res.status, await res.text()],
        [404, "Not Found"],
        `${path}: <root>-private is not the root`,
      );
    }
    const follows = appWith({ precompressed: true, followSymlinks: true });
    const br = await follows.request("/assets/bait.js", { headers: { "accept-encoding": "br" } });
    assert.deepEqual([br.headers.get("content-encoding"), await br.text()], ["br", "outside the root"]);
  });

  test("a trailing slash names a directory: a file with one is a 404; a directory with an index, without one, redirects", async () => {
    const file = await app.request("/assets/css/a.css/");
    assert.equal(file.status, 404);
    const bare = await app.request("/assets/docs?page=2");
    assert.deepEqual([bare.status, bare.headers.get("location")], [301, "./docs/?page=2"]);
    assert.equal(
      new URL(bare.headers.get("location")!, "http://x/assets/docs?page=2").pathname,
      "/assets/docs/",
    );
    assert.equal((await app.request("/assets/empty")).status, 404, "no index: no redirect, no listing");
    // A segment that could read as a scheme (`v1:beta`) or hold a space stays a relative path on this origin.
    for (const [path, location] of [
      ["/assets/v1:beta", "./v1%3Abeta/"],
      ["/assets/two%20words", "./two%20words/"],
    ] as const) {
      const odd = await app.request(path);
      assert.deepEqual([odd.status, odd.headers.get("location")], [301, location], path);
      const resolved = new URL(location, `http://x${path}`);
      assert.deepEqual([resolved.origin, resolved.pathname], ["http://x", `${path}/`.replace(":", "%3A")]);
      assert.equal(await (await app.request(resolved.pathname)).text(), "<h1>odd</h1>", resolved.pathname);
    }
    const off = await appWith({ redirect: false }).request("/assets/docs");
    assert.deepEqual([off.status, await off.text()], [200, "<h1>docs</h1>"]);
  });

  test("extensions: a path naming no file tries them in order (a static site's clean URLs)", async () => {
    const clean = appWith({ extensions: [".html", ".css"] });
    assert.equal(await (await clean.request("/assets/css/a")).text(), "body { color: red }\n");
    assert.equal(await (await clean.request("/assets/docs/index")).text(), "<h1>docs</h1>");
    assert.equal((await clean.request("/assets/css/missing")).status, 404);
    // One segment tries them too; a path ending in a slash names a directory, and tries none.
    const json = appWith({ extensions: [".json"] });
    assert.equal(await (await json.request("/assets/data")).text(), '{"a":1}');
    assert.equal((await clean.request("/assets/css/a/")).status, 404);
    assert.equal((await app.request("/assets/css/a")).status, 404, "none by default");
    assert.throws(() => serveStatic({ root: ".", extensions: ["html"] }), /extension/);
  });

  test("options are checked when the handler is made", () => {
    assert.throws(() => serveStatic({} as never), /root/);
    assert.throws(() => serveStatic({ root: ".", dotfiles: "show" as never }), /dotfiles/);
    assert.throws(() => serveStatic({ root: ".", maxAge: 1.5 }), /maxAge/);
  });
});

describe("serveStatic() beside the middleware a real app combines it with", () => {
  test("compress, etag, csrf, logger, timeout and sessions around static files", async () => {
    const lines: string[] = [];
    const app = createApp();
    app
      .use(logger({ sink: (entry) => void lines.push(`${entry.status} ${entry.path}`) }))
      .use(timeout(2000))
      .use(compress({ threshold: 0 }))
      .use(etag())
      .use(csrf())
      .use(session({ secret: "a-session-secret-of-at-least-32-characters" }));
    app.get("/assets/*", serveStatic({ root: fixture.root, precompressed: true }));
    const page = await app.request("/assets/page.txt", { headers: { "accept-encoding": "br" } });
    assert.equal(page.headers.get("content-encoding"), "br", "the precompressed file, not compressed twice");
    await page.arrayBuffer();
    const css = await app.request("/assets/css/a.css", { headers: { "accept-encoding": "gzip" } });
    assert.equal(css.status, 200);
    const tag = css.headers.get("etag")!;
    await css.arrayBuffer();
    const again = await app.request("/assets/css/a.css", { headers: { "if-none-match": tag } });
    assert.equal(again.status, 304);
    const big = await app.request("/assets/big.bin", { headers: { range: "bytes=0-9" } });
    assert.deepEqual([big.status, Buffer.from(await big.arrayBuffer())], [206, fixture.big.subarray(0, 10)]);
    const post = await app.request("/assets/css/a.css", {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    assert.equal(post.status, 403);
    assert.deepEqual(lines, [
      "200 /assets/page.txt",
      "200 /assets/css/a.css",
      "304 /assets/css/a.css",
      "206 /assets/big.bin",
      "403 /assets/css/a.css",
    ]);
  });
});
