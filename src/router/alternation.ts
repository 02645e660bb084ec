// Fast path for dynamic routes: the routes one method can reach in one bucket (route-table.ts), joined
// into a single regexp, `^(?:route1()$|route2()$|…)`, so that a request costs one `exec` instead of a
// loop of map lookups and one `exec` per route. The empty capture after each route marks which one
// matched: the captures of options that did not match are `undefined`, so the first `""` after index 0
// belongs to the option that did (one of its parameters, or its marker). Order is kept: an alternation
// tries its options left to right, exactly as the loop tried the routes.
// Measured with bench/router.ts (mitata, ns per match), and what is left: see route-table.ts.

/** The options of a joined regexp, in order, with where their captures start in the match. */
export interface Alternation<TSlot> {
  readonly regexp: RegExp;
  /** Per capture index of the joined regexp: the option it belongs to. */
  readonly owner: Int32Array;
  /** Per option: the index of its first capture in the match. */
  readonly start: Int32Array;
  readonly slots: readonly TSlot[];
}

/** One route's regexp (`^…$`, no backreferences) and what it stands for. */
export interface AlternationOption<TSlot> {
  readonly regexp: RegExp;
  readonly slot: TSlot;
}

/**
 * Joins route regexps into one; `undefined` when there are none or they cannot be joined (mixed
 * flags, or a source that is not anchored at both ends).
 */
export function alternation<TSlot>(
  options: readonly AlternationOption<TSlot>[],
): Alternation<TSlot> | undefined {
  const flags = options[0]?.regexp.flags;
  if (flags === undefined) return undefined;
  const sources: string[] = [];
  const owner: number[] = [-1];
  const start: number[] = [];
  for (let i = 0; i < options.length; i++) {
    const { regexp } = options[i]!;
    const source = regexp.source;
    if (regexp.flags !== flags || !source.startsWith("^") || !/[^\\]\$$/.test(source)) return undefined;
    sources.push(`${source.slice(1, -1)}()$`);
    start.push(owner.length);
    // Its own captures, then the marker.
    const captures = captureCount(regexp) + 1;
    for (let c = 0; c < captures; c++) owner.push(i);
  }
  return {
    regexp: new RegExp(`^(?:${sources.join("|")})`, flags),
    owner: Int32Array.from(owner),
    start: Int32Array.from(start),
    slots: options.map((option) => option.slot),
  };
}

/** The option of an alternation a match came from (see the module's comment). */
export function matchedOption(alternation: Alternation<unknown>, match: RegExpExecArray): number {
  return alternation.owner[match.indexOf("", 1)]!;
}

// `x|` always matches the empty string, with every capture of `x` undefined: the array's length counts them.
function captureCount(regexp: RegExp): number {
  return new RegExp(`${regexp.source}|`, regexp.flags).exec("")!.length - 1;
}
