// Searching bytes as they arrive (the multipart reader's delimiters and header ends).

const CR = 13;
const LF = 10;

/**
 * The first index of `needle` in `haystack` from `from`, or -1: candidates by the native indexOf of the
 * first byte, each checked in full (linear: the needle is a CRLF and a boundary of at most 70 bytes).
 */
export function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  const last = haystack.byteLength - needle.byteLength;
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.byteLength && haystack[i + j] === needle[j]) j++;
    if (j === needle.byteLength) return i;
  }
  return -1;
}

/** The index of the first CRLF CRLF in `data` from `from`, or -1. */
export function indexOfHeaderEnd(data: Uint8Array, from: number): number {
  for (let i = data.indexOf(CR, from); i !== -1 && i + 3 < data.byteLength; i = data.indexOf(CR, i + 1)) {
    if (data[i + 1] === LF && data[i + 2] === CR && data[i + 3] === LF) return i;
  }
  return -1;
}
