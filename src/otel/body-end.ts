// When a request's span ends: once the response is handed to the runtime, and, for a body sent as a
// stream (SSE, a file, a returned `Response`), once its last chunk is read for sending or the client
// leaves (the runtime cancels it).
import type { Context } from "../context/context.ts";
import type { ResponseParts } from "../http/response-parts.ts";

/** Calls `end` with the parts sent, once they are handed over and their streamed body, if any, is done. */
export function endWithBody(ctx: Context<unknown>, end: (parts: ResponseParts) => void): void {
  const response = ctx.response;
  let sent: ResponseParts | undefined;
  // True while a body this watches is still being sent.
  let streaming = false;
  let ended = false;
  const settle = (): void => {
    if (sent === undefined || streaming || ended) return;
    ended = true;
    end(sent);
  };
  // Only a body that may be a stream is watched: the others cost no transform.
  if (response.body instanceof ReadableStream || (response.raw !== undefined && response.raw.body !== null)) {
    response.transform({
      parts(parts) {
        const body = parts.body;
        if (body instanceof ReadableStream) {
          streaming = true;
          parts.body = watched(body, () => {
            streaming = false;
            settle();
          });
        }
        return parts;
      },
    });
  }
  ctx.whenHandedOver((parts) => {
    sent = parts;
    // What is sent is not a stream (an error answered instead, a HEAD): the watched one will not be read.
    if (!(parts.body instanceof ReadableStream)) streaming = false;
    settle();
  });
}

// `body`, read through: `done` is called once when it ends, fails or is cancelled.
function watched(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let called = false;
  const finish = (): void => {
    if (called) return;
    called = true;
    done();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) {
            controller.close();
            finish();
          } else controller.enqueue(chunk.value);
        } catch (error) {
          controller.error(error);
          finish();
        }
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
