// The path checks of portico/static, directly: which decoded wildcard parts name a file under the root,
// and the inside-the-root test (the mutation audit found both only reached through the server's tests).
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileSegments, isInside } from "../../src/static/file-path.ts";

test("a decoded path names segments under the root, or is refused as bad", () => {
  assert.deepEqual(fileSegments("", "ignore"), []);
  assert.deepEqual(fileSegments("x", "ignore"), ["x"]);
  assert.deepEqual(fileSegments("css/a.css", "ignore"), ["css", "a.css"]);
  assert.deepEqual(fileSegments("docs/", "ignore"), ["docs"], "a trailing slash: a directory");
  assert.deepEqual(fileSegments("two words/x y.txt", "ignore"), ["two words", "x y.txt"]);
  assert.deepEqual(
    fileSegments("v1:beta/%2e", "ignore"),
    ["v1:beta", "%2e"],
    "a colon past the first letter",
  );
  assert.deepEqual(fileSegments("a~b/é", "ignore"), ["a~b", "é"]);
  for (const bad of [
    "/etc/passwd",
    "a//b",
    "a/b//",
    ".",
    "..",
    "a/./b",
    "a/../b",
    "a/..",
    "a\\b",
    "a\x00b",
    "a\x1fb",
    "a\x7fb",
    "\ufffd",
    "C:",
    "c:/windows",
    "x/D:evil",
    "x".repeat(256),
  ]) {
    assert.equal(fileSegments(bad, "allow"), "bad", JSON.stringify(bad));
  }
  assert.deepEqual(fileSegments("x".repeat(255), "ignore"), ["x".repeat(255)], "255 characters pass");
  assert.deepEqual(
    fileSegments(" \x20~", "ignore"),
    [" \x20~"],
    "space and tilde are not control characters",
  );
});

test("dotfiles are hidden unless allowed, at any depth; a bad segment after one is still bad", () => {
  assert.equal(fileSegments(".env", "ignore"), "hidden");
  assert.equal(fileSegments(".env", "deny"), "hidden");
  assert.deepEqual(fileSegments(".env", "allow"), [".env"]);
  assert.equal(fileSegments("a/.git/config", "ignore"), "hidden");
  assert.deepEqual(fileSegments("a/.well-known/x", "allow"), ["a", ".well-known", "x"]);
  assert.equal(fileSegments(".env/../x", "ignore"), "bad");
  assert.deepEqual(
    fileSegments("a.b/c.", "ignore"),
    ["a.b", "c."],
    "a dot inside or at the end is no dotfile",
  );
});

test("inside the root: the root itself and what is under it, never a sibling that shares its name", () => {
  assert.equal(isInside("/srv/www", "/srv/www"), true);
  assert.equal(isInside("/srv/www/a/b", "/srv/www"), true);
  assert.equal(isInside("/srv/www/a", "/srv/www/"), true);
  assert.equal(isInside("/srv/www-private/a", "/srv/www"), false);
  assert.equal(isInside("/srv/wwwx", "/srv/www"), false);
  assert.equal(isInside("/srv", "/srv/www"), false);
  assert.equal(isInside("C:\\www\\a", "C:\\www"), true);
  assert.equal(isInside("C:\\www2\\a", "C:\\www"), false);
  assert.equal(isInside("C:\\www\\a", "C:\\www\\"), true);
});
