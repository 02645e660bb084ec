// A folder to serve, made fresh for each suite: files of several types, an index, a directory without
// one, dotfiles, precompressed siblings, a large file, and symlinks inside and out of the root.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";

/** The made folder: `root` is served, `secret` sits beside it. */
export interface StaticFixture {
  readonly root: string;
  readonly secret: string;
  readonly big: Buffer;
  remove(): void;
}

/** Makes the folder (a 4 MiB `big.bin` of known bytes among the files). */
export function makeStaticFixture(): StaticFixture {
  const base = mkdtempSync(join(tmpdir(), "portico-static-"));
  const root = join(base, "public");
  const at = (path: string, body: string | Buffer) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), body);
  };
  at("css/a.css", "body { color: red }\n");
  at("index.html", "<h1>home</h1>");
  at("docs/index.html", "<h1>docs</h1>");
  at("v1:beta/index.html", "<h1>odd</h1>");
  at("two words/index.html", "<h1>odd</h1>");
  mkdirSync(join(root, "empty"), { recursive: true });
  at("app.js", "console.log('hi')");
  at("data.json", '{"a":1}');
  at("font.woff2", Buffer.from([1, 2, 3]));
  at("café menu.txt", "crème");
  at("%2e", "a file named with a percent sign");
  at(".env", "SECRET=1");
  at(".git/config", "[core]");
  const text = "compress me ".repeat(200);
  at("page.txt", text);
  at("page.txt.br", brotliCompressSync(text));
  at("page.txt.gz", gzipSync(text));
  at("empty.txt", "");
  const big = Buffer.alloc(4 * 1024 * 1024);
  for (let i = 0; i < big.length; i++) big[i] = (i * 31) & 255;
  at("big.bin", big);
  utimesSync(join(root, "css/a.css"), new Date("2026-01-02T03:04:05Z"), new Date("2026-01-02T03:04:05Z"));
  writeFileSync(join(base, "secret.txt"), "outside the root");
  mkdirSync(join(base, "outside"));
  writeFileSync(join(base, "outside", "x.txt"), "outside too");
  symlinkSync(join(base, "secret.txt"), join(root, "leak.txt"));
  symlinkSync(join(base, "outside"), join(root, "leakdir"));
  symlinkSync(join(root, "css", "a.css"), join(root, "alias.css"));
  // Every way a path is formed, each leading outside: a precompressed sibling, an index file, an
  // extension's fallback; and a folder beside the root whose name starts with the root's.
  at("bait.js", "inside");
  symlinkSync(join(base, "secret.txt"), join(root, "bait.js.br"));
  symlinkSync(join(base, "secret.txt"), join(root, "bait.js.gz"));
  mkdirSync(join(root, "trap"));
  symlinkSync(join(base, "secret.txt"), join(root, "trap", "index.html"));
  symlinkSync(join(base, "secret.txt"), join(root, "clean.html"));
  mkdirSync(join(base, "public-private"));
  writeFileSync(join(base, "public-private", "key.txt"), "outside the root, beside it");
  symlinkSync(join(base, "public-private", "key.txt"), join(root, "sibling.txt"));
  symlinkSync(join(base, "public-private"), join(root, "siblingdir"));
  return {
    root,
    secret: join(base, "secret.txt"),
    big,
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}
