import { ANY_PATH_CHAR, parseRegExp, type RegExpNode, UncheckableError } from "./regexp-tree.ts";

// Every runtime's regexp engine backtracks: it tries the ways a path can be split among a pattern's
// parts one after another. That stays linear in the path's length exactly when the number of ways to
// read any prefix is bounded, i.e. when the pattern's position automaton (Glushkov) has neither
// exponential ambiguity (a state that reads some text from itself back to itself along two paths)
// nor polynomial ambiguity (states p ≠ q with p →w p, p →w q and q →w q for one text w): Weber and
// Seidl's criteria. `/r3/:a-:b-:c` passes (after the segment rewrite); `/:a:b` or `/*/x/*/y` do not.
// Ambiguity only costs when the engine must come back to try another way, so states from which every
// remaining path is accepted (a trailing greedy `*`: it reads to the end, and the match succeeds), and
// the states only reachable through them, are left out: `/*/x/*` and `/files/**` pass.

/** Why a pattern is refused: the kind of ambiguity, and the capture groups (1-based; 0 = fixed text) involved. */
export interface Ambiguity {
  readonly kind: "exponential" | "polynomial";
  readonly groups: readonly number[];
}

const MAX_STATES = 512;
const MAX_STEPS = 4_000_000;

/** Checks a regexp source; returns the ambiguity that would make matching super-linear, if any. */
export function findAmbiguity(source: string, flags: string): Ambiguity | undefined {
  const automaton = buildAutomaton(parseRegExp(source, flags));
  if (automaton.doubledLoop !== undefined) {
    return { kind: "exponential", groups: [automaton.groups[automaton.doubledLoop]!] };
  }
  const budget = { steps: MAX_STEPS };
  return exponential(automaton, budget) ?? polynomial(automaton, budget);
}

interface Automaton {
  /** Per state (0 is the start): the set of characters read on entering it. */
  readonly sets: bigint[];
  /** Per state: the capture group its character belongs to. */
  readonly groups: number[];
  /** Per state: the states it can go to. */
  readonly next: number[][];
  /**
   * Per state: whether ambiguity there can cost anything. False once every rest of the path is
   * accepted (the engine never comes back past such a state), and for states only reachable after one.
   */
  readonly relevant: boolean[];
  /** A relevant state that a repetition can loop through in two ways at once (`(?:.*)*`), if any. */
  readonly doubledLoop: number | undefined;
}

interface Info {
  readonly nullable: boolean;
  readonly first: readonly number[];
  readonly last: readonly number[];
}

const EMPTY_INFO: Info = { nullable: true, first: [], last: [] };

function buildAutomaton(root: RegExpNode): Automaton {
  const sets: bigint[] = [0n];
  const groups: number[] = [0];
  const next: number[][] = [[]];
  const greedyLoop: boolean[] = [false];
  const doubled: number[] = [];
  const link = (from: readonly number[], to: readonly number[]): void => {
    for (const state of from) {
      const list = next[state]!;
      for (const target of to) if (sets[target] !== 0n && !list.includes(target)) list.push(target);
    }
  };
  const concat = (left: Info, right: Info): Info => {
    link(left.last, right.first);
    return {
      nullable: left.nullable && right.nullable,
      first: left.nullable ? [...left.first, ...right.first] : left.first,
      last: right.nullable ? [...left.last, ...right.last] : right.last,
    };
  };
  // x{2,4} = x x (x (x)?)?, x{2,} = x x x*: fresh positions for each copy, as the engine counts them.
  const optional = (item: RegExpNode, count: number): Info => {
    if (count === 0) return EMPTY_INFO;
    const info = concat(build(item), optional(item, count - 1));
    return { nullable: true, first: info.first, last: info.last };
  };
  const build = (node: RegExpNode): Info => {
    switch (node.kind) {
      case "empty":
        return EMPTY_INFO;
      case "char": {
        if (sets.length > MAX_STATES) throw new UncheckableError("the pattern is too large to check");
        sets.push(node.set);
        groups.push(node.group);
        next.push([]);
        greedyLoop.push(false);
        return { nullable: false, first: [sets.length - 1], last: [sets.length - 1] };
      }
      case "seq":
        return node.items.reduce((info, item) => concat(info, build(item)), EMPTY_INFO);
      case "alt": {
        const infos = node.options.map(build);
        return {
          nullable: infos.some((info) => info.nullable),
          first: infos.flatMap((info) => info.first),
          last: infos.flatMap((info) => info.last),
        };
      }
      case "repeat": {
        let info = EMPTY_INFO;
        for (let i = 0; i < node.min; i++) info = concat(info, build(node.item));
        if (node.max !== Number.POSITIVE_INFINITY)
          return concat(info, optional(node.item, node.max - node.min));
        const loop = build(node.item);
        // A body that already leads from its end back to its start, such as `(?:.*)*` or `(?:a+)+`:
        // the automaton merges the two ways into one transition, the engine tries both.
        for (const last of loop.last) {
          if (loop.first.some((first) => next[last]!.includes(first))) doubled.push(last);
        }
        link(loop.last, loop.first);
        if (!node.lazy && node.item.kind === "char") greedyLoop[loop.first[0]!] = true;
        return concat(info, { nullable: true, first: loop.first, last: loop.last });
      }
    }
  };
  const info = build(root);
  link([0], info.first);
  const universal = sets.map(
    (set, state) => set === ANY_PATH_CHAR && greedyLoop[state]! && info.last.includes(state),
  );
  const relevant = sets.map(() => false);
  const stack = [0];
  while (stack.length > 0) {
    const state = stack.pop()!;
    if (relevant[state] || universal[state]) continue;
    relevant[state] = true;
    stack.push(...next[state]!);
  }
  return { sets, groups, next, relevant, doubledLoop: doubled.find((state) => relevant[state]) };
}

interface Budget {
  steps: number;
}

function spend(budget: Budget, steps: number): void {
  budget.steps -= steps;
  if (budget.steps < 0) throw new UncheckableError("the pattern is too complex to check");
}

// Two different paths from p back to p reading the same text: a walk in the product automaton from
// (p, p) back to (p, p) that leaves the diagonal on the way.
function exponential(automaton: Automaton, budget: Budget): Ambiguity | undefined {
  const { sets, next, groups, relevant } = automaton;
  const size = sets.length;
  for (let p = 1; p < size; p++) {
    if (!relevant[p]) continue;
    const seen = new Set<number>();
    const queue: number[] = [p, p, 0];
    while (queue.length > 0) {
      const off = queue.pop()!;
      const b = queue.pop()!;
      const a = queue.pop()!;
      spend(budget, 1);
      for (const a2 of next[a]!) {
        if (!relevant[a2]) continue;
        for (const b2 of next[b]!) {
          if (!relevant[b2] || (sets[a2]! & sets[b2]!) === 0n) continue;
          const left = off === 1 || a2 !== b2 ? 1 : 0;
          if (a2 === p && b2 === p && left === 1) return { kind: "exponential", groups: [groups[p]!] };
          const key = (a2 * size + b2) * 2 + left;
          if (seen.has(key)) continue;
          seen.add(key);
          queue.push(a2, b2, left);
        }
      }
    }
  }
  return undefined;
}

// p →w p, p →w q, q →w q: a walk in the triple product from (p, p, q) to (p, q, q).
function polynomial(automaton: Automaton, budget: Budget): Ambiguity | undefined {
  const { sets, next, groups, relevant } = automaton;
  const size = sets.length;
  const reach = next.map((_, state) => reachable(next, relevant, state));
  const looping = (state: number): boolean => reach[state]!.has(state);
  for (let p = 1; p < size; p++) {
    if (!relevant[p] || !looping(p)) continue;
    for (const q of reach[p]!) {
      if (q === p || !relevant[q] || !looping(q)) continue;
      const seen = new Set<number>();
      const queue: number[] = [p, p, q];
      while (queue.length > 0) {
        const c = queue.pop()!;
        const b = queue.pop()!;
        const a = queue.pop()!;
        spend(budget, 1);
        for (const a2 of next[a]!) {
          if (!relevant[a2]) continue;
          for (const b2 of next[b]!) {
            const ab = sets[a2]! & sets[b2]!;
            if (!relevant[b2] || ab === 0n) continue;
            for (const c2 of next[c]!) {
              if (!relevant[c2] || (ab & sets[c2]!) === 0n) continue;
              if (a2 === p && b2 === q && c2 === q) {
                return { kind: "polynomial", groups: [groups[p]!, groups[q]!] };
              }
              const key = (a2 * size + b2) * size + c2;
              if (seen.has(key)) continue;
              seen.add(key);
              queue.push(a2, b2, c2);
            }
          }
        }
      }
    }
  }
  return undefined;
}

function reachable(next: readonly number[][], relevant: readonly boolean[], from: number): Set<number> {
  const seen = new Set<number>();
  const stack = [...next[from]!];
  while (stack.length > 0) {
    const state = stack.pop()!;
    if (seen.has(state) || !relevant[state]) continue;
    seen.add(state);
    stack.push(...next[state]!);
  }
  return seen;
}
