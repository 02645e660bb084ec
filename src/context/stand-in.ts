/**
 * Makes a stand-in class pass for the standard class it replaces: the listed getters and methods are
 * answered by the real object, which `real(this)` builds on first use, and `instanceof` holds.
 * Portico's light responses and the Node adapter's request use it.
 *
 * @example
 * standIn(LightResponse.prototype, Response.prototype, (self) => self.real(), ["headers"], ["text"]);
 */
export function standIn<TSelf>(
  prototype: object,
  standard: object,
  real: (self: TSelf) => object,
  getters: readonly string[],
  methods: readonly string[],
): void {
  for (const name of getters) {
    Object.defineProperty(prototype, name, {
      get(this: TSelf) {
        return (real(this) as Record<string, unknown>)[name];
      },
    });
  }
  for (const name of methods) {
    Object.defineProperty(prototype, name, {
      value(this: TSelf) {
        const target = real(this) as Record<string, () => unknown>;
        return target[name]!.call(target);
      },
    });
  }
  Object.setPrototypeOf(prototype, standard);
}

/** The body-reading methods a `Request` and a `Response` share. */
export const BODY_METHODS: readonly string[] = [
  "arrayBuffer",
  "blob",
  "bytes",
  "formData",
  "json",
  "text",
  "clone",
];
