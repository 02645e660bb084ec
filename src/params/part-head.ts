// What a multipart body's parts are: the boundary, each part's header block read into a `PartHead`
// (the form field's name, the file's name — a safe base name, and the one the client sent — its media
// type), and the contracts between the reader and what it reads into (plans, sinks, limits).
import { bodyError, type ParamsError, paramMessage, paramsError } from "../errors/param-errors.ts";

/** What one part says about itself. */
export interface PartHead {
  /** The form field's name (`avatar`, `photos[]`, `user[name]`). */
  readonly name: string;
  /**
   * The file name, for a file part: a base name, safe to join to a directory (no `/`, `\`, control
   * character or NUL; never `.` or `..`).
   */
  readonly filename: string | undefined;
  /** The file name as the client sent it, for a file part. */
  readonly rawFilename: string | undefined;
  /** The part's media type (default `text/plain` for fields, `application/octet-stream` for files). */
  readonly type: string;
  /** Whether the part named its media type (a file whose name is empty may come without a file name). */
  readonly typed: boolean;
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** What to do with a part, decided from its headers (or a thrown error that refuses the request). */
export type PartPlan =
  | { readonly kind: "field" }
  | { readonly kind: "file"; readonly maxSize: number; readonly stream: boolean };

/** The bounds of one multipart body. */
export interface MultipartLimits {
  /** The whole body, in bytes (413 past it). */
  readonly bodySize: number;
  /** Text fields (400 past it). */
  readonly fields: number;
  /** File parts (400 past it). */
  readonly files: number;
  /** One text field, in bytes (413 past it). */
  readonly fieldSize: number;
  /** One part's header block, in bytes (400 past it). */
  readonly headerSize: number;
  /** Header lines in one part (400 past it). */
  readonly headerLines: number;
}

/** Where the parts go. */
export interface PartSink {
  /** Decides what a part is (throws to refuse it). */
  plan(head: PartHead): PartPlan;
  /** A complete text field. */
  field(head: PartHead, value: string): void;
  /** A complete buffered file. */
  file(head: PartHead, value: File): void;
  /** A streamed file: its content follows as the stream is read; it must be the body's last part. */
  stream(head: PartHead, content: ReadableStream<Uint8Array>): void;
}

/** The boundary of a `multipart/form-data` Content-Type, or a 400 that says what is wrong. */
export function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw bodyError("form", "Form body is multipart/form-data without a boundary");
  if (!BOUNDARY.test(boundary)) throw bodyError("form", "Form body has an invalid multipart boundary");
  return boundary;
}

/**
 * A file from a multipart form: `name` is a safe base name (see {@link PartHead.filename}), `rawName`
 * the name exactly as the client sent it.
 */
export class UploadedFile extends File {
  /** The file name as the client sent it (it may hold `../`, an absolute path, control characters). */
  readonly rawName: string;

  /** A file part's content, with its names and type. */
  constructor(content: Uint8Array, head: PartHead) {
    super([content as Uint8Array<ArrayBuffer>], head.filename ?? "", { type: head.type });
    this.rawName = head.rawFilename ?? "";
  }
}

/** A multipart form's error about one field (or the whole body, for a nameless part). */
export function fieldError(name: string, text: string): ParamsError {
  const path = name === "" ? [] : [name];
  return paramsError("form", [
    { path, message: path.length ? paramMessage("form", path, text) : `Form body ${text}` },
  ]);
}

/** Reads a part's header block (without its final blank line), or throws a 400 that says what is wrong. */
export function readPartHead(block: Uint8Array, maxLines: number): PartHead {
  let text: string;
  try {
    text = decoder.decode(block);
  } catch {
    throw bodyError("form", "Form body has a part whose headers are not UTF-8");
  }
  const lines = text.split("\r\n");
  if (lines.length > maxLines) throw bodyError("form", "Form body has a part with too many headers");
  let disposition: string | undefined;
  let type: string | undefined;
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw bodyError("form", "Form body has a malformed part header");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") {
      if (disposition !== undefined)
        throw bodyError("form", "Form body has a part with two Content-Disposition headers");
      disposition = value;
    } else if (name === "content-type") {
      if (type !== undefined) throw bodyError("form", "Form body has a part with two Content-Type headers");
      type = value;
    }
  }
  const parsed = disposition === undefined ? undefined : parseDisposition(disposition);
  if (parsed === undefined || parsed.name === undefined) {
    throw bodyError("form", "Form body has a part without a form-data Content-Disposition and name");
  }
  if (type !== undefined && /^\s*multipart\//i.test(type)) {
    throw fieldError(parsed.name, "is a nested multipart body, which is not supported");
  }
  const raw = parsed.filename;
  return {
    name: parsed.name,
    filename: raw === undefined ? undefined : safeFileName(raw),
    rawFilename: raw,
    type: type ?? (raw === undefined ? "text/plain" : "application/octet-stream"),
    typed: type !== undefined,
  };
}

/**
 * A file name safe to join to a directory: the last segment after `/` or `\`, without control
 * characters or NUL, and never `.` or `..` (those become empty).
 */
function safeFileName(raw: string): string {
  const base = raw.slice(Math.max(raw.lastIndexOf("/"), raw.lastIndexOf("\\")) + 1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes.
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return clean === "." || clean === ".." ? "" : clean;
}

// `form-data; name="user[name]"; filename="a.txt"` (and RFC 5987's `filename*=UTF-8''…`). A parameter
// given twice, or a `filename*` that says another name than `filename`, is refused: which one a server
// reads differs between servers, and that difference is how uploads get past checks.
function parseDisposition(
  value: string,
): { name: string | undefined; filename: string | undefined } | undefined {
  const semicolon = value.indexOf(";");
  const kind = (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
  if (kind !== "form-data") return undefined;
  const params = new Map<string, string>();
  const re = /;\s*([^=\s;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/gy;
  re.lastIndex = semicolon < 0 ? value.length : semicolon;
  for (let match = re.exec(value); match !== null; match = re.exec(value)) {
    const key = match[1]!.toLowerCase();
    if (params.has(key))
      throw bodyError("form", `Form body has a part whose Content-Disposition gives ${key} twice`);
    const quoted = match[2];
    params.set(key, quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : match[3]!.trim());
  }
  let filename = params.get("filename");
  const extended = params.get("filename*");
  if (extended !== undefined) {
    const star = /^UTF-8''(.*)$/i.exec(extended);
    let decoded: string | undefined;
    try {
      decoded = star ? decodeURIComponent(star[1]!) : undefined;
    } catch {
      decoded = undefined;
    }
    if (decoded === undefined)
      throw bodyError("form", "Form body has a part with an invalid filename* (expected UTF-8''…)");
    if (filename !== undefined && filename !== decoded)
      throw bodyError("form", "Form body has a part whose filename and filename* disagree");
    filename = decoded;
  }
  return { name: params.get("name"), filename };
}
