/** An object built from client input: own keys only, nothing inherited (`toString`, `__proto__`…). */
export type Dictionary<TValue> = Record<string, TValue>;

// `Object.create(null)` objects have no inherited keys but live in V8's slow dictionary mode; an
// instance of a function whose prototype is such an object has fast properties and inherits nothing
// either (its prototype is empty and has no prototype itself). `__proto__` is then an ordinary key.
function Empty(): void {}
Empty.prototype = Object.create(null) as object;
const EmptyObject = Empty as unknown as new () => Dictionary<never>;

/**
 * A new object for values from input, with no inherited keys.
 *
 * @example
 * const params = dictionary<string>();
 * params.constructor; // undefined
 */
export function dictionary<TValue>(): Dictionary<TValue> {
  return new EmptyObject() as Dictionary<TValue>;
}
