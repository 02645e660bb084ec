import { HttpError, payloadTooLargeError } from "../errors/http-error.ts";
import { bodyError, paramMessage } from "../errors/param-errors.ts";
import { ByteBuffer } from "../http/byte-buffer.ts";
import { indexOf, indexOfHeaderEnd } from "./byte-search.ts";
import { drain, read } from "./form-reader.ts";
import {
  fieldError,
  type MultipartLimits,
  type PartHead,
  type PartPlan,
  type PartSink,
  readPartHead,
  UploadedFile,
} from "./part-head.ts";

// A streaming `multipart/form-data` reader (RFC 7578 over RFC 2046). Every limit is enforced as the
// bytes arrive: a part's headers (size and count), each field's size, each file's size and type, the
// number of files, and the body's total — and an undeclared file is refused as soon as its headers are
// read, before its content. Nothing is buffered but the current field or file (or nothing, for a file
// streamed to the handler).

const CR = 13;
const LF = 10;
const DASH = 45;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
// Whitespace allowed after a boundary (RFC 2046's transport padding; senders write none or a few).
const MAX_PADDING = 1024;

type State = "start" | "after-boundary" | "headers" | "body" | "done";

/**
 * Reads a multipart body from `reader` into `sink`. Resolves when the body is read — or as soon as a
 * streamed file starts (its stream then reads the rest). Rejects with a 400 or 413 `HttpError`.
 */
export async function readMultipart(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
  sink: PartSink,
): Promise<void> {
  const parser = new Parser(boundary, limits, sink);
  try {
    for (let chunk = await parser.next(reader); chunk !== undefined; chunk = await parser.next(reader)) {
      if (parser.write(chunk)) {
        parser.handOver(reader);
        return;
      }
    }
    parser.finish();
  } catch (error) {
    // The rest of a refused body is read and dropped (within the body limit), so that the connection
    // stays usable and the client, still sending, gets the answer rather than a reset.
    if (!(error instanceof HttpError && error.code === 413))
      await drain(reader, limits.bodySize - parser.total);
    reader.cancel().catch(() => {});
    throw error;
  }
}

class Parser {
  readonly #delimiter: Uint8Array;
  readonly #limits: MultipartLimits;
  readonly #sink: PartSink;
  #state: State = "start";
  #buffer: Uint8Array;
  #head: PartHead | undefined;
  #plan: PartPlan | undefined;
  #content = new ByteBuffer();
  #size = 0;
  #padding = 0;
  #fields = 0;
  #files = 0;
  #stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  #preamble = 0;
  #handedOver = false;
  /** The body's bytes read so far. */
  total = 0;

  constructor(boundary: string, limits: MultipartLimits, sink: PartSink) {
    // Each delimiter is CRLF "--" boundary; the first may open the body, so the body is read as if it
    // began with a CRLF.
    this.#delimiter = encoder.encode(`\r\n--${boundary}`);
    this.#buffer = new Uint8Array([CR, LF]);
    this.#limits = limits;
    this.#sink = sink;
  }

  /** The body's next chunk, counted against its limit (over it: 413); `undefined` at its end. */
  async next(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | undefined> {
    const { done, value } = await read(reader);
    if (done) return undefined;
    this.total += value.byteLength;
    if (this.total > this.#limits.bodySize) throw payloadTooLargeError(this.#limits.bodySize);
    return value;
  }

  /** Takes a chunk; returns true when a streamed file has started (the caller hands the reader over). */
  write(chunk: Uint8Array): boolean {
    let data = chunk;
    if (this.#buffer.byteLength > 0) {
      data = new Uint8Array(this.#buffer.byteLength + chunk.byteLength);
      data.set(this.#buffer);
      data.set(chunk, this.#buffer.byteLength);
    }
    let at = 0;
    while (true) {
      const before = this.#state;
      at = this.#step(data, at);
      if (at < 0) {
        at = -at - 1;
        break;
      }
      if (
        this.#state === "body" &&
        before === "headers" &&
        this.#plan?.kind === "file" &&
        this.#plan.stream
      ) {
        this.#buffer = data.subarray(at);
        return true;
      }
      if (this.#state === "done") break;
    }
    this.#buffer = this.#state === "done" ? new Uint8Array(0) : data.slice(at);
    return false;
  }

  /** The body ended: it must have been complete. */
  finish(): void {
    if (this.#state !== "done") throw bodyError("form", "Form body is an unterminated multipart body");
  }

  // One step of the machine from `at`; returns the new position, or -(position + 1) to wait for more.
  #step(data: Uint8Array, at: number): number {
    switch (this.#state) {
      case "start": {
        const found = indexOf(data, this.#delimiter, at);
        // A preamble is allowed (and ignored), but not an endless one.
        const skipped = found < 0 ? Math.max(at, data.byteLength - this.#delimiter.byteLength) : found;
        this.#preamble += skipped - at;
        if (this.#preamble > this.#limits.headerSize) {
          throw bodyError("form", "Form body does not start with its multipart boundary");
        }
        if (found < 0) return -(skipped + 1);
        this.#state = "after-boundary";
        return found + this.#delimiter.byteLength;
      }
      case "after-boundary": {
        // Transport padding (spaces, tabs) may follow a boundary: consumed as it comes, so that it is
        // neither kept nor scanned again, and bounded.
        let i = at;
        while (i < data.byteLength && (data[i] === 32 || data[i] === 9)) i++;
        this.#padding += i - at;
        if (this.#padding > MAX_PADDING)
          throw bodyError("form", "Form body has too much padding after a multipart boundary");
        if (data.byteLength - i < 2) return -(i + 1);
        this.#padding = 0;
        if (data[i] === DASH && data[i + 1] === DASH) {
          this.#state = "done";
          return i + 2;
        }
        if (data[i] !== CR || data[i + 1] !== LF)
          throw bodyError("form", "Form body has a malformed multipart boundary line");
        this.#state = "headers";
        return i + 2;
      }
      case "headers": {
        const end = indexOfHeaderEnd(data, at);
        if (end < 0) {
          // Past the limit even if the block's blank line (up to three of its bytes here) is next.
          if (data.byteLength - at > this.#limits.headerSize + 3)
            throw bodyError("form", "Form body has a part whose headers are too large");
          return -(at + 1);
        }
        if (end - at > this.#limits.headerSize)
          throw bodyError("form", "Form body has a part whose headers are too large");
        this.#startPart(data.subarray(at, end));
        this.#state = "body";
        return end + 4;
      }
      case "body": {
        const found = indexOf(data, this.#delimiter, at);
        if (found < 0) {
          // Keep what could be the start of a delimiter split across chunks.
          const keep = Math.max(at, data.byteLength - this.#delimiter.byteLength + 1);
          if (keep > at) this.#received(data.subarray(at, keep));
          return -(keep + 1);
        }
        if (found > at) this.#received(data.subarray(at, found));
        this.#endPart();
        this.#state = "after-boundary";
        return found + this.#delimiter.byteLength;
      }
      case "done":
        return -(data.byteLength + 1);
    }
  }

  #startPart(block: Uint8Array): void {
    // A streamed file is handed to the handler as it starts: nothing may follow it.
    if (this.#handedOver) throw bodyError("form", "Form body has parts after a streamed file");
    const head = readPartHead(block, this.#limits.headerLines);
    const plan = this.#sink.plan(head);
    if (plan.kind === "file") {
      if (++this.#files > this.#limits.files)
        throw bodyError("form", `Form body has more than ${this.#limits.files} files`);
    } else if (++this.#fields > this.#limits.fields) {
      throw bodyError("form", `Form body has more than ${this.#limits.fields} fields`);
    }
    this.#head = head;
    this.#plan = plan;
    this.#content.clear();
    this.#size = 0;
  }

  #received(bytes: Uint8Array): void {
    const plan = this.#plan!;
    this.#size += bytes.byteLength;
    const limit = plan.kind === "file" ? plan.maxSize : this.#limits.fieldSize;
    if (this.#size > limit) {
      const text = paramMessage("form", [this.#head!.name], `is larger than ${limit} bytes`);
      const error = payloadTooLargeError(limit, text);
      this.#stream?.error(error);
      throw error;
    }
    if (this.#stream) this.#stream.enqueue(bytes.slice());
    else this.#content.push(bytes);
  }

  #endPart(): void {
    const head = this.#head!;
    if (this.#stream) {
      // The streamed file's content is whole; its stream closes once the body's end is read.
      this.#stream = undefined;
    } else if (this.#plan!.kind === "file") {
      this.#sink.file(head, new UploadedFile(this.#content.bytes(), head));
    } else {
      let value: string;
      try {
        value = decoder.decode(this.#content.bytes());
      } catch {
        throw fieldError(head.name, "is not valid UTF-8");
      }
      this.#sink.field(head, value);
    }
    this.#content.clear();
  }

  /**
   * A streamed file has started: its stream reads the rest of the body through this parser, and closes
   * only once the body's closing delimiter is read (a part after the file errors it with a 400).
   */
  handOver(reader: ReadableStreamDefaultReader<Uint8Array>): void {
    const parser = this;
    const rest = this.#buffer;
    this.#buffer = new Uint8Array(0);
    this.#handedOver = true;
    // The body must not end before its closing delimiter.
    const next = async (): Promise<Uint8Array> => {
      const chunk = await parser.next(reader);
      if (chunk === undefined) throw bodyError("form", "Form body is an unterminated multipart body");
      return chunk;
    };
    const content = new ReadableStream<Uint8Array>({
      start(controller) {
        parser.#stream = controller;
        parser.write(rest);
      },
      async pull(controller) {
        try {
          // The file's content, until something is queued (pull is called again as it is read).
          while (parser.#stream !== undefined) {
            parser.write(await next());
            if (parser.#stream !== undefined && (controller.desiredSize ?? 1) <= 0) return;
          }
          // The file ended: only the closing delimiter (and an epilogue, not read) may follow.
          while (parser.#state !== "done") parser.write(await next());
          reader.cancel().catch(() => {});
          controller.close();
        } catch (error) {
          reader.cancel().catch(() => {});
          try {
            controller.error(error);
          } catch {
            // Already errored by the parser.
          }
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    this.#sink.stream(this.#head!, content);
  }
}
