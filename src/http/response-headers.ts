// The headers of the response being built (`ctx.response.headers`): the `Headers` API over two small
// arrays, handed to the runtime only when the response is made. A runtime's own `Headers` costs far
// more to fill and then to copy into a `Response` than setting the few values on the `Response` once
// made (one header set by the app, plus the id, mitata: Deno 4.07 µs against 1.23; Bun 1.14 against
// 0.76), and Node's adapter writes the values straight from here, without undici's `Headers`.
// Semantics are the standard's (names case-insensitive, values trimmed, `get` combines with ", ",
// iteration sorted, `Set-Cookie` never combined), with the stricter value check of `field-value.ts`.
import { TOKEN } from "../wire/contract.ts";
import { checkFieldValue } from "./field-value.ts";

const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const SET_COOKIE = "set-cookie";

// An app sets the same few names again and again, spelled as its code spells them: each is checked
// and lower-cased once (a regexp test and `toLowerCase` were two thirds of a `set`, 80 of 125 ns on
// V8). Bounded: a name made from input cannot grow it without limit.
const checkedNames = new Map<string, string>();

function nameOf(name: string): string {
  const known = checkedNames.get(name);
  if (known !== undefined) return known;
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Invalid header name ${JSON.stringify(text.slice(0, 64))}`);
  const key = text.toLowerCase();
  if (checkedNames.size >= 256) checkedNames.clear();
  if (typeof name === "string") checkedNames.set(name, key);
  return key;
}

// Values too: most an app sets are constants (`text/plain`, a policy), checked once each. Short ones
// only, and bounded, so that values made from input cannot grow it.
const checkedValues = new Map<string, string>();

function fieldValue(name: string, value: string): string {
  const known = checkedValues.get(value);
  if (known !== undefined) return known;
  let text = typeof value === "string" ? value : String(value);
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  if (first <= 32 || last <= 32) text = text.replace(EDGE_WHITESPACE, "");
  checkFieldValue(name, text);
  if (typeof value === "string" && value.length <= 256) {
    if (checkedValues.size >= 256) checkedValues.clear();
    checkedValues.set(value, text);
  }
  return text;
}

/** Response headers: the `Headers` API, kept as plain values until the response is made. */
export class ResponseHeaders implements Headers {
  // Each name (lower case) and value as set or appended, in order: what a runtime's `Headers` holds.
  readonly #names: string[] = [];
  readonly #values: string[] = [];

  /** Adds a value (read back joined to the name's others with ", "; a `Set-Cookie` stays apart). */
  append(name: string, value: string): void {
    const key = nameOf(name);
    this.#names.push(key);
    this.#values.push(fieldValue(key, value));
  }

  /** Sets a header, replacing its values. */
  set(name: string, value: string): void {
    const key = nameOf(name);
    const text = fieldValue(key, value);
    const names = this.#names;
    const index = names.indexOf(key);
    if (index < 0) {
      names.push(key);
      this.#values.push(text);
      return;
    }
    this.#values[index] = text;
    this.#remove(key, index + 1);
  }

  /** Removes a header. */
  delete(name: string): void {
    this.#remove(nameOf(name), 0);
  }

  /** A header's values joined with ", ", or `null`. */
  get(name: string): string | null {
    const key = nameOf(name);
    const names = this.#names;
    let found: string | null = null;
    for (let i = 0; i < names.length; i++) {
      if (names[i] === key) found = found === null ? this.#values[i]! : `${found}, ${this.#values[i]}`;
    }
    return found;
  }

  /** Each `Set-Cookie` value. */
  getSetCookie(): string[] {
    return this.#values.filter((_, i) => this.#names[i] === SET_COOKIE);
  }

  /** Whether the header is set. */
  has(name: string): boolean {
    return this.#names.includes(nameOf(name));
  }

  /** Calls `callback` with each value and name, sorted by name. */
  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#sorted()) callback.call(thisArg, value, name, this);
  }

  /** The name–value pairs, sorted by name, values combined but each `Set-Cookie` apart. */
  entries(): HeadersIterator<[string, string]> {
    return this.#sorted()[Symbol.iterator]() as unknown as HeadersIterator<[string, string]>;
  }

  /** The names, sorted. */
  keys(): HeadersIterator<string> {
    return this.#sorted()
      .map(([name]) => name)
      [Symbol.iterator]() as unknown as HeadersIterator<string>;
  }

  /** The values, sorted by name. */
  values(): HeadersIterator<string> {
    return this.#sorted()
      .map(([, value]) => value)
      [Symbol.iterator]() as unknown as HeadersIterator<string>;
  }

  /** The name–value pairs, sorted by name. */
  [Symbol.iterator](): HeadersIterator<[string, string]> {
    return this.entries();
  }

  /** "Headers". */
  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  /**
   * Copies every value into a runtime's own `Headers` (a name's first value set, replacing what the
   * runtime put there, the others appended): what makes a `Response` of them.
   */
  copyTo(target: Headers): void {
    const names = this.#names;
    const values = this.#values;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      if (names.indexOf(name) === i) target.set(name, values[i]!);
      else target.append(name, values[i]!);
    }
  }

  /**
   * Sets a header Portico itself made (the request id, a default content type): the name is lower
   * case and the value checked already, so neither is looked at again.
   */
  setOwn(key: string, value: string): void {
    const index = this.#names.indexOf(key);
    if (index < 0) {
      this.#names.push(key);
      this.#values.push(value);
    } else {
      this.#remove(key, index + 1);
      this.#values[index] = value;
    }
  }

  /** Whether a header Portico names itself (lower case) is set, without checking the name. */
  hasOwn(key: string): boolean {
    return this.#names.includes(key);
  }

  /** A copy, whose changes do not reach these headers. */
  copy(): ResponseHeaders {
    const copy = new ResponseHeaders();
    copy.#names.push(...this.#names);
    copy.#values.push(...this.#values);
    return copy;
  }

  /**
   * The headers as one flat list, `[name, value, name, value, …]`, in the order set: a name's values
   * joined with `, `, every `Set-Cookie` its own line. What Node's `writeHead(status, list)` takes, with
   * no object or closure made per response.
   */
  flat(): string[] {
    const names = this.#names;
    const values = this.#values;
    const out: string[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const first = names.indexOf(name);
      if (first === i || name === SET_COOKIE) out.push(name, values[i]!);
      else {
        // A later value of a name already listed: joined to its first line (names at even places only:
        // a value may read like a name).
        let at = 0;
        while (out[at] !== name) at += 2;
        out[at + 1] = `${out[at + 1]}, ${values[i]}`;
      }
    }
    return out;
  }

  #remove(key: string, from: number): void {
    const names = this.#names;
    for (let i = names.length - 1; i >= from; i--) {
      if (names[i] === key) {
        names.splice(i, 1);
        this.#values.splice(i, 1);
      }
    }
  }

  #sorted(): [string, string][] {
    const combined = new Map<string, string>();
    const pairs: [string, string][] = [];
    const names = this.#names;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const value = this.#values[i]!;
      if (name === SET_COOKIE) pairs.push([name, value]);
      else combined.set(name, combined.has(name) ? `${combined.get(name)}, ${value}` : value);
    }
    for (const pair of combined) pairs.push(pair);
    // Stable: the cookies keep their order.
    return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
