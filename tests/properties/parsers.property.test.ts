import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import "./settings.ts";
import { defaultLimits } from "../../src/context/limits.ts";
import { ParamsError } from "../../src/errors/param-errors.ts";
import { pickMediaType } from "../../src/http/accept.ts";
import { encodeLocation, isLocalPath } from "../../src/http/location.ts";
import { checkOriginForm } from "../../src/http/origin-form.ts";
import { anyTarget, checkTarget } from "../../src/http/request-target.ts";
import { parseJsonObject } from "../../src/params/parse-json.ts";
import { parseNested } from "../../src/params/parse-nested.ts";

// Properties of the parsers that see client input: they answer or refuse with the documented error,
// never anything else, and what they build inherits nothing.

const RUNS = { numRuns: 500 };
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);
// Strings made of what query strings are made of, brackets and escapes included.
const queryText = fc.string({
  unit: fc.constantFrom(
    "a",
    "b",
    "1",
    "=",
    "&",
    "[",
    "]",
    "%",
    "2",
    "F",
    "+",
    " ",
    "é",
    "_",
    "p",
    "r",
    "o",
    "t",
  ),
  maxLength: 120,
});

function assertNoInheritance(value: unknown, path = "root"): void {
  if (typeof value !== "object" || value === null) return;
  if (!Array.isArray(value)) assert.equal(Object.getPrototypeOf(value), null, `${path} has no prototype`);
  for (const [key, child] of Object.entries(value)) {
    assert.ok(!FORBIDDEN.has(key), `${path} holds no ${key}`);
    assertNoInheritance(child, `${path}.${key}`);
  }
}

test("nested query and form parsing: a tree with no inherited keys, or a ParamsError", () => {
  fc.assert(
    fc.property(
      queryText,
      fc.constantFrom("query", "form") as fc.Arbitrary<"query" | "form">,
      (text, source) => {
        try {
          assertNoInheritance(parseNested(text, source, defaultLimits));
        } catch (error) {
          if (!(error instanceof ParamsError)) throw error;
        }
      },
    ),
    RUNS,
  );
});

test("nested parsing of well-formed keys keeps every value under its path", () => {
  const key = fc.stringMatching(/^[a-z]{1,6}$/).filter((k) => !FORBIDDEN.has(k));
  fc.assert(
    fc.property(
      fc.uniqueArray(key, { minLength: 1, maxLength: 8 }),
      fc.array(fc.string(), { maxLength: 8 }),
      (keys, values) => {
        const text = keys.map((k, i) => `g[${k}]=${encodeURIComponent(values[i] ?? "")}`).join("&");
        const group = parseNested(text, "query", defaultLimits).g as Record<string, string>;
        for (const [i, k] of keys.entries()) assert.equal(group[k], values[i] ?? "");
      },
    ),
    RUNS,
  );
});

// JSON values whose keys may spell (or escape) the prototype keys.
const jsonKey = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("__proto__", "constructor", "prototype"),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string({ maxLength: 6 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(jsonKey, tie("value"), { maxKeys: 4 }),
  ),
})).value;

function hasForbiddenKey(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  return Object.entries(value).some(([key, child]) => FORBIDDEN.has(key) || hasForbiddenKey(child));
}

// Writes JSON with some of the keys' letters as \u escapes, as a client may.
function escapedJson(value: unknown, escapes: (i: number) => boolean): string {
  if (Array.isArray(value)) return `[${value.map((item) => escapedJson(item, escapes)).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const members = Object.entries(value).map(([key, child]) => {
    const spelled = [...JSON.stringify(key).slice(1, -1)]
      .map((c, i) =>
        escapes(i) && /[a-z_]/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : c,
      )
      .join("");
    return `"${spelled}":${escapedJson(child, escapes)}`;
  });
  return `{${members.join(",")}}`;
}

test("the JSON body check: prototype keys are refused however they are spelled, anything else passes", () => {
  fc.assert(
    fc.property(
      fc.dictionary(jsonKey, jsonValue, { maxKeys: 5 }),
      fc.func(fc.boolean()),
      (object, escapes) => {
        const text = escapedJson(object, (i) => escapes(i));
        const parsed = JSON.parse(text) as unknown;
        const bad = hasForbiddenKey(parsed);
        try {
          parseJsonObject(text, 64);
          assert.equal(bad, false, `accepted ${text}`);
        } catch (error) {
          assert.ok(error instanceof ParamsError, String(error));
          assert.equal(bad, true, `refused ${text}`);
        }
      },
    ),
    RUNS,
  );
});

test("the JSON body check: any text is parsed or refused with a JSONBodyError", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.json()), (text) => {
      try {
        parseJsonObject(text, 64);
      } catch (error) {
        assert.ok(error instanceof ParamsError && error.source === "json", String(error));
      }
    }),
    RUNS,
  );
});

test("Accept negotiation never throws and picks a candidate or none", () => {
  const candidates = ["text/plain", "application/json", "text/html"];
  fc.assert(
    fc.property(fc.option(fc.string({ maxLength: 200 })), (accept) => {
      const index = pickMediaType(accept, candidates);
      assert.ok(Number.isInteger(index) && index >= -1 && index < candidates.length);
    }),
    RUNS,
  );
});

test("the request target check never throws, and what it accepts is ASCII without dot segments", () => {
  const target = fc.string({
    unit: fc.constantFrom("/", ".", "%", "2", "e", "E", "\\", "a", "?", "#", " ", "é", ":", "@"),
    maxLength: 40,
  });
  fc.assert(
    fc.property(
      target,
      fc.option(fc.string({ maxLength: 30 })),
      fc.constantFrom("GET", "get", "POST", "X Y"),
      (path, host, method) => {
        const checked = checkTarget(`http://h${path.startsWith("/") ? "" : "/"}${path}`, host, method);
        if (typeof checked === "string") return;
        assert.match(checked.path, /^\/[\x21-\x7e]*$/);
        assert.doesNotMatch(checked.path, /(^|\/)(\.|%2e){1,2}(\/|$)/i);
      },
    ),
    RUNS,
  );
});

test("the request target check's fast path answers as the full check does", () => {
  const part = fc.string({
    unit: fc.constantFrom(
      "/",
      ".",
      "%",
      "2",
      "e",
      "E",
      "\\",
      "a",
      "Z",
      "?",
      "#",
      " ",
      "é",
      "*",
      "{",
      "~",
      "=",
    ),
    maxLength: 40,
  });
  // Weighted towards what the fast path takes (a valid Host, the same in the URL), so both answer often.
  const authorities = ["h", "h:80", "127.0.0.1:3000", "[::1]:8080", "H", "h:99999", "h/x", "h?"];
  fc.assert(
    fc.property(
      fc.constantFrom("http://", "http://", "https://", "HTTP://", "ftp://"),
      fc.constantFrom(...authorities),
      part,
      fc.constantFrom("same", "same", "null", ...authorities),
      fc.constantFrom("GET", "GET", "OPTIONS", "get", "PURGE"),
      fc.constantFrom(undefined, undefined, "http" as const, "https" as const),
      (scheme, authority, path, hostChoice, method, connection) => {
        const url = `${scheme}${authority}${path.startsWith("/") ? "" : "/"}${path}`;
        const host = hostChoice === "same" ? authority : hostChoice === "null" ? null : hostChoice;
        // Twice: the second time the Host is known valid, and the fast path may take it.
        for (let i = 0; i < 2; i++) {
          assert.deepEqual(
            checkTarget(url, host, method, connection),
            anyTarget(url, host, method, connection),
          );
        }
      },
    ),
    { numRuns: 2000 },
  );
});

test("an origin-form target checked without its URL answers as the full check of that URL does", () => {
  const part = fc.string({
    unit: fc.constantFrom("/", ".", "%", "2", "e", "\\", "a", "?", "#", " ", "é", "*", "{", "=", "&"),
    maxLength: 40,
  });
  const hosts = ["h", "h:80", "127.0.0.1:3000", "[::1]:8080", "H", "h:99999", "h/x", "a b"];
  fc.assert(
    fc.property(
      fc.constantFrom("http" as const, "https" as const),
      fc.option(fc.constantFrom(...hosts)),
      part,
      fc.constantFrom("GET", "POST", "OPTIONS", "get", "PURGE"),
      (scheme, host, path, method) => {
        const target = `/${path}`;
        // Twice: the second time the Host may be known valid, and the origin form taken.
        for (let i = 0; i < 2; i++) {
          const full = checkTarget(`${scheme}://${host ?? "listening"}${target}`, host, method, scheme);
          const form = checkOriginForm(scheme, host, target, method);
          if (form === undefined) continue;
          assert.notEqual(typeof full, "string", `${target} on ${host}: the full check refuses it`);
          const { url, path: checkedPath, query, rewritten, asterisk } = form;
          assert.deepEqual({ url, path: checkedPath, query, rewritten, asterisk }, full);
        }
      },
    ),
    { numRuns: 2000 },
  );
});

test("Location values: every encoded one is printable ASCII; local paths are never another host", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 40, unit: "grapheme" }), (location) => {
      assert.match(encodeLocation(location), /^[\x21-\x7e]*$/);
      if (isLocalPath(location)) {
        const resolved = new URL(location, "https://site.example/base/");
        assert.equal(resolved.host, "site.example", location);
      }
    }),
    RUNS,
  );
});
