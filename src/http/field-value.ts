// Fetch's `Headers` accept control characters that HTTP forbids in a field value (RFC 9110 §5.5); each
// runtime then does its own thing with them (Node throws, Bun sends them, Deno stops answering). The
// response headers a handler sets are checked as they are set: checking them once the response is
// built meant iterating the `Headers`, which Deno sorts and combines on every iteration (13 µs for the
// dozen headers of `secureHeaders()` + CORS, the largest cost of a request through them).
// One native regexp test per value (a loop over every character cost Bun a tenth of a request with
// secureHeaders' dozen headers).

// Characters beyond U+00FF are refused by the same test: a header value is a ByteString.
// biome-ignore lint/complexity/useRegexLiterals: a literal would hold the control characters it looks for.
const UNSENDABLE = new RegExp("[\\u0000-\\u0008\\u000a-\\u001f\\u007f\\u0100-\\uffff]");

/** Throws a `TypeError` when a header value holds a character HTTP cannot carry. */
export function checkFieldValue(name: string, value: string): void {
  const found = UNSENDABLE.exec(value);
  if (found === null) return;
  throw new TypeError(
    found[0].charCodeAt(0) > 0xff
      ? `Response header "${name}" holds a character beyond U+00FF`
      : `Response header "${name}" holds a control character, which HTTP cannot carry`,
  );
}
