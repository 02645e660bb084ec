import { type Dictionary, dictionary } from "../context/dictionary.ts";
import { PathParamsError, paramMessage } from "../errors/param-errors.ts";

/** A route found for a request, and its path parameters (percent-decoded, no inherited keys). */
export interface RouteMatch<TRoute> {
  readonly route: TRoute;
  /** The parameters by name; a dynamic route's are made on first read. */
  readonly params: Dictionary<string>;
}

/**
 * A dynamic route's match. Its values are checked when it is found (length, percent-encoding: a
 * malformed `%` is a 400 before any handler runs) and decoded in place; the object of names is made
 * when something reads `params`. Storing a key that varies by route cost V8 40–90 ns a parameter
 * (its store site sees every route's names: megamorphic; a wildcard's index key `0` most), a quarter
 * of a dynamic match (bench/router.ts); a route whose handler never reads them no longer pays it.
 */
export class DynamicMatch<TRoute> implements RouteMatch<TRoute> {
  readonly route: TRoute;
  readonly #names: readonly string[];
  readonly #values: RegExpExecArray;
  readonly #first: number;
  #params: Dictionary<string> | undefined = undefined;

  /** `values[first + i]` is the value of `names[i]` (`undefined`: an optional part that did not match). */
  constructor(
    route: TRoute,
    names: readonly string[],
    values: RegExpExecArray,
    first: number,
    maxLength: number,
  ) {
    for (let i = 0; i < names.length; i++) {
      const value = values[first + i];
      if (value === undefined) continue;
      if (value.length > maxLength) throw paramError(names[i]!, `is longer than ${maxLength} characters`);
      // Matched still encoded (so `%2F` stays inside its segment), decoded once, here.
      if (value.indexOf("%") >= 0) values[first + i] = decode(names[i]!, value);
    }
    this.route = route;
    this.#names = names;
    this.#values = values;
    this.#first = first;
  }

  get params(): Dictionary<string> {
    if (this.#params === undefined) {
      const params = dictionary<string>();
      const names = this.#names;
      for (let i = 0; i < names.length; i++) {
        const value = this.#values[this.#first + i];
        if (value !== undefined) params[names[i]!] = value;
      }
      this.#params = params;
    }
    return this.#params;
  }
}

function decode(name: string, value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw paramError(name, `has malformed percent-encoding "${value.slice(0, 64)}"`);
  }
}

function paramError(name: string, text: string): PathParamsError {
  return new PathParamsError([{ path: [name], message: paramMessage("path", [name], text) }]);
}
