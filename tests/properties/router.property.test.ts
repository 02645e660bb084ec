import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import "./settings.ts";
import { PathParamsError } from "../../src/errors/param-errors.ts";
import { createApp } from "../../src/mod.ts";
import { compilePattern, compileStandard } from "../../src/router/compile-pattern.ts";
import { escapeRegExp } from "../../src/router/pattern-source.ts";
import { charSet, parseRegExp, type RegExpNode } from "../../src/router/regexp-tree.ts";
import { RouteTable } from "../../src/router/route-table.ts";

// Properties of the router. Linear time is shown without a clock: a backtracking matcher that walks
// the same regexp tree in the order JavaScript engines do counts its steps on adversarial paths of
// length n and 4n. A linear pattern takes about 4× the steps; a polynomial one, 16× or more.

const RUNS = { numRuns: 300 };

function steps(node: RegExpNode, input: string, budget = 3_000_000): number {
  const bits = [...input].map((c) => charSet(escapeRegExp(c), "v"));
  let count = 0;
  const match = (n: RegExpNode, i: number, next: (i: number) => boolean): boolean => {
    if (++count > budget) throw new RangeError("budget");
    switch (n.kind) {
      case "empty":
        return next(i);
      case "char":
        return i < bits.length && (bits[i]! & n.set) !== 0n && next(i + 1);
      case "seq": {
        const from = (k: number, j: number): boolean =>
          k === n.items.length ? next(j) : match(n.items[k]!, j, (to) => from(k + 1, to));
        return from(0, i);
      }
      case "alt":
        return n.options.some((option) => match(option, i, next));
      case "repeat": {
        const again = (times: number, j: number): boolean => {
          const more = (): boolean =>
            times < n.max &&
            match(n.item, j, (to) => (to === j && times >= n.min ? false : again(times + 1, to)));
          if (times < n.min) return more();
          return n.lazy ? next(j) || more() : more() || next(j);
        };
        return again(0, i);
      }
    }
  };
  match(node, 0, (end) => end === bits.length);
  return count;
}

function growth(pattern: string, unit: string, tail: string): number {
  const { regexp } = compileStandard(pattern);
  const tree = parseRegExp(regexp.source, regexp.flags);
  const at = (n: number): number => {
    try {
      return steps(tree, `/${unit.repeat(n)}${tail}`);
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  };
  const short = at(40);
  return short === Number.POSITIVE_INFINITY ? short : at(160) / Math.max(short, 1);
}

test("the step counter tells polynomial patterns from linear ones", () => {
  assert.ok(growth("/:a:b", "a", "/x") > 10, "two adjacent parameters: quadratic");
  assert.ok(growth("/:a(.*)-:b", "-a", "/x") > 10, "a wildcard before a parameter: quadratic");
  assert.ok(growth("/:x((?:a+)+)", "a", "!") > 10, "nested repetition: exponential");
  // Compiled as Portico does (a parameter ends at the first separator): linear.
  assert.ok(growth("/:a-:b-:c", "a-", "/x") < 6, "Portico's :a-:b-:c is linear");
});

// Patterns from URLPattern's syntax: static words, parameters with or without regexps, wildcards,
// groups and modifiers, joined by "/", "-" or ".".
const piece = fc.oneof(
  fc.constantFrom("a", "foo", "x1"),
  fc.constantFrom(
    ":p",
    ":p(\\d+)",
    ":p([a-z]+)",
    ":p([^-]+)",
    ":p(.*)",
    ":p(a+)",
    ":p(a|b)",
    "*",
    "{-x}",
    "(a)",
  ),
);
const modifier = fc.constantFrom("", "", "", "?", "+", "*");
const pattern = fc
  .array(fc.tuple(fc.constantFrom("/", "/", "-", "."), piece, modifier), { minLength: 1, maxLength: 5 })
  .map((parts) => {
    let n = 0;
    return parts
      .map(
        ([sep, p, mod]) =>
          `${sep}${p.replace(":p", () => `:p${n++}`)}${p === "a" || p === "foo" || p === "x1" ? "" : mod}`,
      )
      .join("");
  })
  .filter((p) => p.startsWith("/"));
const adversarial = fc.tuple(
  fc.string({ unit: fc.constantFrom("a", "-", ".", "/", "1", "x", "b"), minLength: 1, maxLength: 4 }),
  fc.constantFrom("", "!", "/", "/x", "-", "%"),
);

test("any pattern compiles, or is refused with a TypeError that says why", () => {
  fc.assert(
    fc.property(pattern, (p) => {
      try {
        compilePattern(p);
      } catch (error) {
        assert.ok(error instanceof TypeError, `${p}: ${String(error)}`);
        assert.match((error as Error).message, /^(Invalid route pattern|Route pattern .* is refused)/);
      }
    }),
    RUNS,
  );
});

test("every pattern the router accepts matches in time linear in the path's length", () => {
  fc.assert(
    fc.property(pattern, adversarial, (p, [unit, tail]) => {
      let compiled: ReturnType<typeof compilePattern>;
      try {
        compiled = compilePattern(p);
      } catch {
        return;
      }
      if (compiled.regexp === undefined) return;
      const ratio = growth(p, unit, tail);
      assert.ok(ratio < 8, `${p} on (${unit})×n${tail}: 4× the length took ${ratio.toFixed(1)}× the steps`);
    }),
    { numRuns: 200 },
  );
});

test("finding a route never throws anything but a PathParamsError, and params inherit nothing", () => {
  const table = new RouteTable<string>(200);
  for (const p of ["/a/:x", "/files/*", "/:a-:b", "/x/:n(\\d+)", "/", "/static/path"])
    table.add("GET", compilePattern(p), p);
  const path = fc.string({
    unit: fc.constantFrom("/", "a", "%", "2", "F", "x", "-", "1", "é", "E"),
    maxLength: 60,
  });
  fc.assert(
    fc.property(path, (p) => {
      try {
        const found = table.find("GET", p);
        if (found) assert.equal(Object.getPrototypeOf(Object.getPrototypeOf(found.params)), null);
      } catch (error) {
        assert.ok(error instanceof PathParamsError, String(error));
      }
    }),
    RUNS,
  );
});

test("an app answers any path with a status, never an exception", async () => {
  const app = createApp({ logger: { error: () => {} } });
  app.get("/users/:id", (ctx) => ctx.response.write(ctx.request.pathParams.id ?? ""));
  app.get("/files/*", () => {});
  const path = fc.string({
    unit: fc.constantFrom("/", "a", "%", "2", "e", ".", "x", "?", "#", "\\"),
    maxLength: 40,
  });
  await fc.assert(
    fc.asyncProperty(path, async (p) => {
      const res = await app.request(`/${p}`);
      assert.ok([200, 400, 404, 405].includes(res.status), `${p}: ${res.status}`);
    }),
    RUNS,
  );
});

// The order the README documents, tried route by route: among the routes that start with the path's
// first segment or with a parameter, per segment static before parameter before optional before
// wildcard, ties (a route whose segments match the other's first ones) to registration order, each
// route placed after the last one it does not precede; HEAD falls back to GET, any method to ALL.
function referenceFind(
  routes: readonly { method: string; pattern: string }[],
  method: string,
  path: string,
): { route: string; params: Record<string, string> } | undefined {
  type Shape = {
    compiled: ReturnType<typeof compilePattern>;
    byMethod: Map<string, ReturnType<typeof compilePattern>>;
  };
  const shapes = new Map<string, Shape>();
  for (const { method: m, pattern: p } of routes) {
    const compiled = compilePattern(p);
    const shape = shapes.get(compiled.shape) ?? { compiled, byMethod: new Map() };
    shapes.set(compiled.shape, shape);
    shape.byMethod.set(m, compiled);
  }
  const rankOrder = (a: readonly number[], b: readonly number[]): number => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return 0;
  };
  const trimmed = path.replace(/\/+$/, "");
  const pick = (byMethod: Map<string, ReturnType<typeof compilePattern>>) =>
    byMethod.get(method) ?? (method === "HEAD" ? byMethod.get("GET") : undefined) ?? byMethod.get("*");
  for (const { compiled, byMethod } of shapes.values()) {
    if (compiled.staticPath !== undefined && compiled.staticPath === (trimmed || "/") && pick(byMethod)) {
      return {
        route: `${[...byMethod].find(([, c]) => c === pick(byMethod))![0]} ${pick(byMethod)!.pattern}`,
        params: {},
      };
    }
  }
  const slash = trimmed.indexOf("/", 1);
  const first = slash < 0 ? trimmed.slice(1) : trimmed.slice(1, slash);
  const dynamic: Shape[] = [];
  for (const shape of shapes.values()) {
    if (shape.compiled.staticPath !== undefined) continue;
    if (shape.compiled.firstSegment !== undefined && shape.compiled.firstSegment !== first) continue;
    let at = dynamic.length;
    while (at > 0 && rankOrder(dynamic[at - 1]!.compiled.rank, shape.compiled.rank) > 0) at--;
    dynamic.splice(at, 0, shape);
  }
  for (const { compiled, byMethod } of dynamic) {
    const slot = pick(byMethod);
    if (slot === undefined) continue;
    const match =
      compiled.regexp!.exec(trimmed) ?? (trimmed === path ? null : compiled.regexp!.exec(`${trimmed}/`));
    if (match === null) continue;
    const params: Record<string, string> = {};
    slot.names.forEach((name, i) => {
      if (match[i + 1] !== undefined) params[name] = decodeURIComponent(match[i + 1]!);
    });
    return { route: `${[...byMethod].find(([, c]) => c === slot)![0]} ${slot.pattern}`, params };
  }
  return undefined;
}

function agreesWithReference(segment: fc.Arbitrary<string>, pathSegment: fc.Arbitrary<string>): void {
  const routePattern = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join("/")}`);
  const firstSegments = fc.array(
    fc.constantFrom(...Array.from({ length: 20 }, (_, i) => (i % 2 ? `s${i}` : `s-${i}.x`))),
    { maxLength: 20 },
  );
  const routeMethod = fc.constantFrom("GET", "POST", "*");
  const requestPath = fc.array(pathSegment, { maxLength: 5 }).map((s) => `/${s.join("/")}`);
  fc.assert(
    fc.property(
      fc.array(fc.tuple(routeMethod, routePattern), { maxLength: 12 }),
      firstSegments,
      fc.array(fc.tuple(fc.constantFrom("GET", "HEAD", "POST", "PURGE"), requestPath), {
        minLength: 1,
        maxLength: 8,
      }),
      (candidates, extraSegments, requests) => {
        const table = new RouteTable<string>(1000);
        const routes: { method: string; pattern: string }[] = [];
        const all = [...candidates, ...extraSegments.map((s) => ["GET", `/${s}/:id`] as [string, string])];
        for (const [method, pattern] of all) {
          try {
            table.add(method, compilePattern(pattern), `${method} ${pattern}`);
            routes.push({ method, pattern });
          } catch {
            // Refused (super-linear, or the same shape twice): not part of the set.
          }
        }
        // Paths some route matches: its parameters and wildcards filled with static text of other routes.
        const derived = routes.map(
          ({ pattern }) => ["GET", pattern.replace(/:[a-z]+\??/g, "a").replace(/\*/g, "b/a")] as const,
        );
        for (const [method, path] of [...requests, ...derived]) {
          const found = table.find(method, path);
          const expected = referenceFind(routes, method, path);
          assert.deepEqual(
            found && { route: found.route, params: { ...found.params } },
            expected,
            `${method} ${path} among ${routes.map((r) => `${r.method} ${r.pattern}`).join(", ")}`,
          );
        }
      },
    ),
    { numRuns: 1000 },
  );
}

test("the table finds what trying each route in the documented order finds, for any set of routes", () => {
  agreesWithReference(
    fc.constantFrom("a", "b", "c", ":p", ":q?", "*", ":n(\\d+)", ":s([^/]+)", "{x}?", ":f.:e", "x:r(.*)"),
    fc.constantFrom("a", "b", "c", "1", "22", "x", "xy", "f.e", "%41", "s3", "s-4.x", ""),
  );
});

test("…and for routes made of whole segments sharing their static text, which match the same paths more often", () => {
  agreesWithReference(fc.constantFrom("a", "b", ":p", ":q", "*"), fc.constantFrom("a", "b", "x"));
});
