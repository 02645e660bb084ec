// The URLPattern pathname syntax, parsed as the standard does (https://urlpattern.spec.whatwg.org/,
// "tokenize" and "parse a pattern string", strict policy, "/" as delimiter and prefix), so that
// routes mean the same on every runtime whatever its own URLPattern does. Part of the wire contract:
// the router compiles routes from it, `openapi()` writes path templates with it and the client fills
// paths with it, so the three agree on what a route's path is.

/** How often a part may occur. */
type Modifier = "" | "?" | "*" | "+";

/** A piece of a pattern: fixed text, or a group that captures. */
export type Part =
  | { readonly type: "fixed"; readonly value: string; readonly modifier: Modifier }
  | {
      /** `segment`: `:name` (one segment); `full`: `*` or `(.*)`; `regexp`: a custom regexp. */
      readonly type: "segment" | "full" | "regexp";
      /** The parameter's name: `:name`'s, or a number for unnamed groups (`*`, `(…)`). */
      readonly name: string;
      readonly prefix: string;
      /** The custom regexp's source (empty for `segment` and `full`). */
      readonly value: string;
      readonly suffix: string;
      readonly modifier: Modifier;
    };

type TokenType = "open" | "close" | "regexp" | "name" | "char" | "escaped" | "modifier" | "asterisk" | "end";

interface Token {
  readonly type: TokenType;
  readonly index: number;
  readonly value: string;
}

const SEGMENT_REGEXP = "[^\\/]+?";
const FULL_REGEXP = ".*";
const NAME_START = /^[$_\p{ID_Start}]$/u;
const NAME_PART = /^(?:[$_\p{ID_Continue}]|\u200C|\u200D)$/u;

/** A pattern the syntax refuses. */
class PatternError extends TypeError {}

/**
 * Parses a pathname pattern into parts; fixed text is canonicalised with `encode` (as the standard's
 * encoding callback does). Throws a {@link PatternError} on invalid syntax or a repeated name.
 */
export function parsePattern(input: string, encode: (text: string) => string): Part[] {
  const tokens = tokenize(input);
  const parts: Part[] = [];
  const names = new Set<string>();
  let index = 0;
  let pending = "";
  let nextNumber = 0;

  const take = (type: TokenType): Token | undefined =>
    tokens[index]!.type === type ? tokens[index++] : undefined;
  const takeModifier = (): Token | undefined => take("modifier") ?? take("asterisk");
  const takeRegexpOrWildcard = (name: Token | undefined): Token | undefined =>
    take("regexp") ?? (name === undefined ? take("asterisk") : undefined);
  const expectToken = (type: TokenType): void => {
    if (take(type) === undefined) {
      const found = tokens[index]!;
      throw new PatternError(`unexpected ${tokenText(found)} at ${found.index}, expected ${type}`);
    }
  };
  const takeText = (): string => {
    let text = "";
    for (let token = take("char") ?? take("escaped"); token; token = take("char") ?? take("escaped"))
      text += token.value;
    return text;
  };
  const flushPending = (): void => {
    if (pending === "") return;
    parts.push({ type: "fixed", value: encode(pending), modifier: "" });
    pending = "";
  };
  const addPart = (
    prefix: string,
    name: Token | undefined,
    regexpOrWildcard: Token | undefined,
    suffix: string,
    modifierToken: Token | undefined,
  ): void => {
    const modifier = (modifierToken?.value ?? "") as Modifier;
    if (name === undefined && regexpOrWildcard === undefined && modifier === "") {
      pending += prefix;
      return;
    }
    flushPending();
    if (name === undefined && regexpOrWildcard === undefined) {
      if (prefix !== "") parts.push({ type: "fixed", value: encode(prefix), modifier });
      return;
    }
    let value =
      regexpOrWildcard === undefined
        ? SEGMENT_REGEXP
        : regexpOrWildcard.type === "asterisk"
          ? FULL_REGEXP
          : regexpOrWildcard.value;
    let type: "segment" | "full" | "regexp" = "regexp";
    if (value === SEGMENT_REGEXP) type = "segment";
    else if (value === FULL_REGEXP) type = "full";
    if (type !== "regexp") value = "";
    const partName = name?.value ?? String(nextNumber++);
    if (names.has(partName)) throw new PatternError(`the name "${partName}" is used twice`);
    names.add(partName);
    parts.push({ type, name: partName, prefix: encode(prefix), value, suffix: encode(suffix), modifier });
  };

  while (index < tokens.length) {
    const char = take("char");
    const name = take("name");
    const regexpOrWildcard = takeRegexpOrWildcard(name);
    if (name !== undefined || regexpOrWildcard !== undefined) {
      let prefix = char?.value ?? "";
      if (prefix !== "" && prefix !== "/") {
        pending += prefix;
        prefix = "";
      }
      flushPending();
      addPart(prefix, name, regexpOrWildcard, "", takeModifier());
      continue;
    }
    const fixed = char ?? take("escaped");
    if (fixed !== undefined) {
      pending += fixed.value;
      continue;
    }
    if (take("open") !== undefined) {
      const prefix = takeText();
      const groupName = take("name");
      const groupRegexp = takeRegexpOrWildcard(groupName);
      const suffix = takeText();
      expectToken("close");
      addPart(prefix, groupName, groupRegexp, suffix, takeModifier());
      continue;
    }
    flushPending();
    expectToken("end");
  }
  return parts;
}

function tokenText(token: Token): string {
  return token.type === "end" ? "end of pattern" : `"${token.value}"`;
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const fail = (message: string, at: number): never => {
    throw new PatternError(`${message} at ${at}`);
  };
  while (i < input.length) {
    const c = charAt(input, i);
    const start = i;
    i += c.length;
    if (c === "*") tokens.push({ type: "asterisk", index: start, value: c });
    else if (c === "+" || c === "?") tokens.push({ type: "modifier", index: start, value: c });
    else if (c === "{") tokens.push({ type: "open", index: start, value: c });
    else if (c === "}") tokens.push({ type: "close", index: start, value: c });
    else if (c === "\\") {
      if (i >= input.length) fail("a pattern cannot end with a backslash", start);
      const escaped = charAt(input, i);
      i += escaped.length;
      tokens.push({ type: "escaped", index: start, value: escaped });
    } else if (c === ":") {
      let end = i;
      while (end < input.length) {
        const n = charAt(input, end);
        if (!(end === i ? NAME_START : NAME_PART).test(n)) break;
        end += n.length;
      }
      if (end === i) fail("a parameter name is missing or invalid", start);
      tokens.push({ type: "name", index: start, value: input.slice(i, end) });
      i = end;
    } else if (c === "(") {
      i = regexpEnd(input, i, fail);
      tokens.push({ type: "regexp", index: start, value: input.slice(start + 1, i - 1) });
    } else tokens.push({ type: "char", index: start, value: c });
  }
  tokens.push({ type: "end", index: input.length, value: "" });
  return tokens;
}

// Where a `(regexp)` group ends (after its `)`): ASCII only, no capturing group inside, balanced.
function regexpEnd(input: string, from: number, fail: (message: string, at: number) => never): number {
  let depth = 1;
  let i = from;
  while (i < input.length) {
    const c = input[i]!;
    if (c.charCodeAt(0) > 0x7f) fail("a regexp group may only contain ASCII characters", i);
    if (i === from && c === "?") fail('a regexp group cannot start with "?"', i);
    if (c === "\\") {
      if (i + 1 >= input.length || input.charCodeAt(i + 1) > 0x7f)
        fail("invalid escape in a regexp group", i);
      i += 2;
      continue;
    }
    if (c === ")" && --depth === 0) {
      if (i === from) fail("a regexp group is empty", from - 1);
      return i + 1;
    }
    if (c === "(") {
      depth++;
      if (input[i + 1] !== "?") fail("a regexp group cannot contain a capturing group", i);
    }
    i++;
  }
  return fail("a regexp group is not closed", from - 1);
}

function charAt(input: string, index: number): string {
  const code = input.codePointAt(index)!;
  return code > 0xffff ? input.slice(index, index + 2) : input[index]!;
}
