const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Markup that is already safe: what {@link html} builds and {@link unescaped} vouches for. Interpolated
 * into `html` as is; a view's renderer may return it; `String(markup)` gives the text.
 */
export class HtmlString {
  /** The markup. */
  readonly value: string;

  /** Wraps markup that is known to be safe (prefer {@link html} or {@link unescaped}). */
  constructor(value: string) {
    this.value = value;
  }

  /** The markup, as text. */
  toString(): string {
    return this.value;
  }
}

/**
 * Builds HTML, escaping every interpolated value: text is escaped for content and quoted attributes;
 * markup from `html` or `unescaped()` goes in as is; arrays are joined; `null`, `undefined`, `true` and
 * `false` render nothing (so `${ok && html`<b>ok</b>`}` works).
 *
 * @example
 * const page = html`<h1 title="${user.name}">${user.name}</h1><ul>${items.map((i) => html`<li>${i}</li>`)}</ul>`;
 */
export function html(strings: TemplateStringsArray, ...values: readonly unknown[]): HtmlString {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += toMarkup(values[i]) + strings[i + 1]!;
  return new HtmlString(out);
}

/**
 * Marks text as markup that `html` must not escape: only for HTML you wrote or sanitised yourself.
 *
 * @example
 * html`<main>${unescaped(renderedMarkdown)}</main>`
 */
export function unescaped(markup: string): HtmlString {
  return new HtmlString(String(markup));
}

/**
 * The former name of {@link unescaped} (`ctx.request.raw` is the standard `Request`: one name, one meaning).
 *
 * @deprecated Use `unescaped()`; `raw()` goes in 0.4.
 */
export function raw(markup: string): HtmlString {
  return unescaped(markup);
}

function toMarkup(value: unknown): string {
  if (value instanceof HtmlString) return value.value;
  if (value === null || value === undefined || typeof value === "boolean") return "";
  if (Array.isArray(value)) {
    let out = "";
    for (const item of value) out += toMarkup(item);
    return out;
  }
  return escapeHtml(String(value));
}
