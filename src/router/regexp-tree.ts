// A route's regular expression as a tree of character sets, for the linear-time check. Request paths
// are normalised URLs: only the ASCII characters below can occur in them, so each character class is
// reduced to the set of those it accepts (asked of the runtime's own regexp engine, once per class).

/** One node of the tree: a character, a sequence, a choice, a repetition, or nothing (an assertion). */
export type RegExpNode =
  | { readonly kind: "char"; readonly set: bigint; readonly group: number }
  | { readonly kind: "seq"; readonly items: readonly RegExpNode[] }
  | { readonly kind: "alt"; readonly options: readonly RegExpNode[] }
  | {
      readonly kind: "repeat";
      readonly item: RegExpNode;
      readonly min: number;
      readonly max: number;
      readonly lazy: boolean;
    }
  | { readonly kind: "empty" };

/** A regexp feature the check cannot prove linear (backreferences, unbounded lookarounds, `\q{…}`). */
export class UncheckableError extends Error {}

// What may appear in a path as the URL parser serialises it (the rest is percent-encoded).
const PATH_CHARS: readonly string[] = Array.from({ length: 0x7f - 0x21 }, (_, i) =>
  String.fromCharCode(0x21 + i),
).filter((c) => !'"#<>?`{}\\'.includes(c));

const EMPTY: RegExpNode = { kind: "empty" };
/** Every character a path may contain. */
export const ANY_PATH_CHAR: bigint = (1n << BigInt(PATH_CHARS.length)) - 1n;
const sets = new Map<string, bigint>();

/** The set of path characters a single-character regexp (a class, an escape, `.`, a literal) accepts. */
export function charSet(source: string, flags: string): bigint {
  const key = `${flags}${source}`;
  let set = sets.get(key);
  if (set === undefined) {
    const regexp = new RegExp(`^(?:${source})$`, flags);
    set = 0n;
    for (let i = 0; i < PATH_CHARS.length; i++) if (regexp.test(PATH_CHARS[i]!)) set |= 1n << BigInt(i);
    sets.set(key, set);
  }
  return set;
}

/** Parses a valid regexp source (`v` or `u` flag) into a tree; capture groups tag the characters they hold. */
export function parseRegExp(source: string, flags: string): RegExpNode {
  const parser = new TreeParser(source, flags);
  const node = parser.disjunction();
  if (parser.index !== source.length) throw new UncheckableError(`unexpected "${source[parser.index]}"`);
  return node;
}

class TreeParser {
  readonly source: string;
  readonly flags: string;
  index = 0;
  #captures = 0;
  readonly #groups: number[] = [0];

  constructor(source: string, flags: string) {
    this.source = source;
    this.flags = flags;
  }

  disjunction(): RegExpNode {
    const options = [this.#alternative()];
    while (this.source[this.index] === "|") {
      this.index++;
      options.push(this.#alternative());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  }

  #alternative(): RegExpNode {
    const items: RegExpNode[] = [];
    while (this.index < this.source.length && !"|)".includes(this.source[this.index]!)) {
      items.push(this.#quantified(this.#atom()));
    }
    return items.length === 1 ? items[0]! : { kind: "seq", items };
  }

  #atom(): RegExpNode {
    const s = this.source;
    const c = s[this.index]!;
    if (c === "^" || c === "$") {
      this.index++;
      return EMPTY;
    }
    if (c === "(") return this.#group();
    if (c === "[") return this.#char(this.#classEnd(this.index));
    if (c === "\\") {
      const next = s[this.index + 1] ?? "";
      if (next === "b" || next === "B") {
        this.index += 2;
        return EMPTY;
      }
      if (/[1-9]/.test(next) || next === "k") throw new UncheckableError("backreferences are not allowed");
      return this.#char(this.#escapeEnd(this.index));
    }
    return this.#char(this.index + c.length);
  }

  #char(end: number): RegExpNode {
    const text = this.source.slice(this.index, end);
    this.index = end;
    return { kind: "char", set: charSet(text, this.flags), group: this.#groups[this.#groups.length - 1]! };
  }

  #group(): RegExpNode {
    const s = this.source;
    let lookaround = false;
    let capture = false;
    if (s.startsWith("(?:", this.index)) this.index += 3;
    else if (s.startsWith("(?=", this.index) || s.startsWith("(?!", this.index)) {
      this.index += 3;
      lookaround = true;
    } else if (s.startsWith("(?<=", this.index) || s.startsWith("(?<!", this.index)) {
      this.index += 4;
      lookaround = true;
    } else if (s.startsWith("(?<", this.index)) {
      this.index = s.indexOf(">", this.index) + 1;
      capture = true;
    } else if (s.startsWith("(?", this.index)) {
      throw new UncheckableError("regexp modifiers are not allowed");
    } else {
      this.index += 1;
      capture = true;
    }
    if (capture) this.#groups.push(++this.#captures);
    const inner = this.disjunction();
    if (capture) this.#groups.pop();
    if (s[this.index] !== ")") throw new UncheckableError("unbalanced group");
    this.index++;
    if (!lookaround) return inner;
    // A lookaround is matched again at every position it is tried: only a bounded one keeps that constant.
    if (!isBounded(inner)) throw new UncheckableError("a lookaround may not repeat without bound");
    return EMPTY;
  }

  #quantified(atom: RegExpNode): RegExpNode {
    const s = this.source;
    const c = s[this.index];
    let min: number;
    let max: number;
    if (c === "*" || c === "+" || c === "?") {
      this.index++;
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : Number.POSITIVE_INFINITY;
    } else if (c === "{") {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.index));
      if (match === null) throw new UncheckableError("invalid quantifier");
      this.index += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === "" ? Number.POSITIVE_INFINITY : Number(match[3]);
    } else return atom;
    const lazy = s[this.index] === "?";
    if (lazy) this.index++;
    return { kind: "repeat", item: atom, min, max, lazy };
  }

  // `[` … `]` with `v`-flag nesting and escapes.
  #classEnd(from: number): number {
    const s = this.source;
    let depth = 0;
    for (let i = from; i < s.length; i++) {
      const c = s[i];
      if (c === "\\") {
        if (s[i + 1] === "q") throw new UncheckableError("\\q{…} string classes are not allowed");
        i++;
      } else if (c === "[") depth++;
      else if (c === "]" && --depth === 0) return i + 1;
    }
    throw new UncheckableError("unclosed character class");
  }

  #escapeEnd(from: number): number {
    const s = this.source;
    const c = s[from + 1] ?? "";
    if (c === "x") return from + 4;
    if (c === "c") return from + 3;
    if (c === "u") return s[from + 2] === "{" ? s.indexOf("}", from) + 1 : from + 6;
    if (c === "p" || c === "P") return s.indexOf("}", from) + 1;
    return from + 1 + (s.codePointAt(from + 1)! > 0xffff ? 2 : 1);
  }
}

function isBounded(node: RegExpNode): boolean {
  switch (node.kind) {
    case "repeat":
      return node.max !== Number.POSITIVE_INFINITY && isBounded(node.item);
    case "seq":
      return node.items.every(isBounded);
    case "alt":
      return node.options.every(isBounded);
    default:
      return true;
  }
}
