// Reading a multipart body's stream: a read that makes a broken body the client's 400, and a bounded
// drain of what is left after a refusal.
import { bodyError } from "../errors/param-errors.ts";

/**
 * One read. A body the runtime cannot finish reading (the client declared more than it sent, or left)
 * is the client's fault: a 400, as for any body.
 */
export async function read(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  try {
    return await reader.read();
  } catch {
    throw bodyError("form", "Form body could not be read to its end");
  }
}

/** Reads and drops up to `budget` bytes, so that the connection stays usable for the next request. */
export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let left = budget;
  try {
    while (left > 0) {
      const { done, value } = await reader.read();
      if (done) return;
      left -= value.byteLength;
    }
  } catch {
    // The client went away: nothing to drain.
  }
}
