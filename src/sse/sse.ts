import type { Context } from "../context/context.ts";

/** One server-sent event. */
export interface ServerSentEvent {
  /** The event's type (`addEventListener(event, …)` in the browser); no CR or LF. */
  readonly event?: string;
  /** The data: a string (split into `data:` lines), or anything else, sent as JSON. */
  readonly data: unknown;
  /** The event's id, which the browser sends back as `Last-Event-ID` when it reconnects; no CR, LF or NUL. */
  readonly id?: string;
  /** How long the browser waits before reconnecting, in milliseconds. */
  readonly retry?: number;
}

/** The open stream a `sse` callback writes to. */
export interface SSEStream {
  /** Sends an event; resolves once the client is ready for more (writes after close are ignored). */
  send(event: ServerSentEvent): Promise<void>;
  /** Sends a comment line (ignored by browsers; keeps proxies from closing a quiet stream). */
  comment(text: string): Promise<void>;
  /** Ends the stream. */
  close(): void;
  /** True once the stream ended (closed, or the client went away). */
  readonly closed: boolean;
  /** Aborted when the client goes away or the stream closes. */
  readonly signal: AbortSignal;
  /** The `Last-Event-ID` the browser sent when reconnecting, if any. */
  readonly lastEventId: string | undefined;
}

/** Options of {@link sse}. */
export interface SSEOptions {
  /** Milliseconds between heartbeat comments; `0` turns them off. Default 15,000. */
  readonly heartbeat?: number;
  /** Called with an error the callback threw (the stream then closes). Default: logged to the console. */
  readonly onError?: (error: unknown) => void;
}

const encoder = new TextEncoder();
const LINE_BREAK = /\r\n|\r|\n/;
const HEARTBEAT = 15_000;

/** Formats one event as the wire text (`event:`, `id:`, `retry:`, `data:` lines and a blank line). */
export function formatEvent({ event, data, id, retry }: ServerSentEvent): string {
  let out = "";
  if (event !== undefined) {
    if (/[\r\n]/.test(event)) throw new TypeError("An SSE event name cannot hold CR or LF");
    out += `event: ${event}\n`;
  }
  if (id !== undefined) {
    if (/[\r\n\0]/.test(id)) throw new TypeError("An SSE id cannot hold CR, LF or NUL");
    out += `id: ${id}\n`;
  }
  if (retry !== undefined) {
    if (!Number.isSafeInteger(retry) || retry < 0)
      throw new TypeError("SSE retry must be a non-negative integer");
    out += `retry: ${retry}\n`;
  }
  const text = typeof data === "string" ? data : JSON.stringify(data);
  if (text === undefined) throw new TypeError("SSE data must be a string or a JSON value");
  for (const line of text.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * Answers with a stream of server-sent events: runs `callback` with the stream, and closes the stream
 * when it returns. Sets `Content-Type: text/event-stream`, `Cache-Control: no-cache, no-transform` and
 * `X-Accel-Buffering: no`; sends a heartbeat comment every 15 s; stops the runtime's idle timeout for
 * this request where there is one (Bun's). `stream.signal` aborts when the client goes away.
 *
 * @example
 * app.get("/ticks", (ctx) =>
 *   sse(ctx, async (stream) => {
 *     let n = Number(stream.lastEventId ?? 0);
 *     while (!stream.closed) {
 *       await stream.send({ event: "tick", data: { n }, id: String(++n) });
 *       await new Promise((resolve) => setTimeout(resolve, 1000));
 *     }
 *   }),
 * );
 */
export function sse(
  ctx: Context<unknown>,
  callback: (stream: SSEStream) => unknown,
  options: SSEOptions = {},
): Response {
  const heartbeat = options.heartbeat ?? HEARTBEAT;
  const aborter = new AbortController();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  // Writers waiting for the client to take more (resolved when it pulls, or when the stream ends).
  let waiting: (() => void)[] = [];
  const wake = (): void => {
    const resolvers = waiting;
    waiting = [];
    for (const resolve of resolvers) resolve();
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  const finish = (): void => {
    if (closed) return;
    closed = true;
    if (timer !== undefined) clearInterval(timer);
    aborter.abort(new Error("The event stream closed"));
    wake();
  };
  // Every write settles: at once, when the client takes more, or when the stream ends. (`enqueue` may
  // cancel the stream synchronously when the client has left, Deno's does: `closed` is read after it.)
  const write = async (text: string): Promise<void> => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      finish();
      return;
    }
    if (!closed && (controller.desiredSize ?? 1) <= 0)
      await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull() {
        wake();
      },
      cancel() {
        finish();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
  const stream: SSEStream = {
    send: (event) => write(formatEvent(event)),
    comment: (text) => write(`: ${text.replace(/[\r\n]+/g, " ")}\n\n`),
    close() {
      if (closed) return;
      finish();
      // Complete: an abort of the runtime's signal from now on is not the client leaving.
      ctx.answered();
      try {
        controller.close();
      } catch {
        // Cancelled by the client in the meantime.
      }
    },
    get closed() {
      return closed;
    },
    signal: aborter.signal,
    lastEventId: ctx.request.headers.get("last-event-id") ?? undefined,
  };
  const clientSignal = ctx.request.source.signal;
  if (clientSignal.aborted) finish();
  else clientSignal.addEventListener("abort", () => finish(), { once: true });
  ctx.runtime.keepOpen(ctx.request.source, ctx.env);
  if (heartbeat > 0) timer = setInterval(() => void stream.comment("heartbeat"), heartbeat);
  const report =
    options.onError ??
    ((error: unknown) => console.error(`[portico] event stream of request ${ctx.request.id} failed`, error));
  Promise.resolve()
    .then(() => callback(stream))
    .catch(report)
    .finally(() => stream.close());
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
