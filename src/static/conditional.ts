// The validators and ranges of a static file: `ETag`/`Last-Modified` with `If-None-Match`/
// `If-Modified-Since` (RFC 9110 §13), and one byte range with `If-Range` (§14): several ranges answer
// the whole file, a range that cannot be satisfied 416.

/** The file's strong entity tag: its size and modification time (and the encoding served). */
export function entityTag(size: number, mtimeMs: number, coding: string | undefined): string {
  return `"${size.toString(16)}-${mtimeMs.toString(16)}${coding ? `-${coding}` : ""}"`;
}

/** True when the client's copy is current: `If-None-Match` (weak comparison), else `If-Modified-Since`. */
export function notModified(headers: Headers, tag: string, mtimeMs: number): boolean {
  const match = headers.get("if-none-match");
  if (match !== null) {
    if (match.trim() === "*") return true;
    const opaque = tag.replace(/^W\//, "");
    return match.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === opaque);
  }
  const since = headers.get("if-modified-since");
  if (since === null) return false;
  const date = Date.parse(since);
  return !Number.isNaN(date) && Math.floor(mtimeMs / 1000) * 1000 <= date;
}

/** A byte range to send: `[start, end]` (both included), `"whole"`, or `"unsatisfiable"` (416). */
export type RangeAnswer = readonly [number, number] | "whole" | "unsatisfiable";

/** The one range `Range` asks for, when `If-Range` (if any) still names this file. */
export function byteRange(headers: Headers, size: number, tag: string, mtimeMs: number): RangeAnswer {
  const range = headers.get("range");
  if (range === null) return "whole";
  const ifRange = headers.get("if-range");
  if (ifRange !== null) {
    const current = ifRange.trim().startsWith('"')
      ? ifRange.trim() === tag
      : Date.parse(ifRange) === Math.floor(mtimeMs / 1000) * 1000;
    if (!current) return "whole";
  }
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.replace(/\s+/g, ""));
  if (match === null) return "whole"; // several ranges, another unit, or nonsense: the whole file
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return "whole";
  let start: number;
  let end: number;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== "" && Number(last) < start) return "whole";
  }
  if (!Number.isSafeInteger(start) || start >= size) return "unsatisfiable";
  return [start, end];
}
