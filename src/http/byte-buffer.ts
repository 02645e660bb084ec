/**
 * Bytes received in pieces, held in one growing array: memory stays within twice the bytes received
 * however the client cuts them. Keeping each piece instead costs an object per piece, and on some
 * runtimes a piece of one byte holds the whole buffer it was read into (64 KiB on Deno): a body sent
 * one byte at a time then cost gigabytes. A single piece is kept as it is (no copy).
 */
export class ByteBuffer {
  #bytes: Uint8Array<ArrayBuffer> | undefined = undefined;
  #single: Uint8Array | undefined = undefined;
  #length = 0;

  /** Bytes held. */
  get length(): number {
    return this.#length;
  }

  /** Appends a copy of `chunk` (the first one is kept by reference until a second arrives). */
  push(chunk: Uint8Array): void {
    if (chunk.byteLength === 0) return;
    if (this.#length === 0) {
      this.#single = chunk;
      this.#length = chunk.byteLength;
      return;
    }
    const needed = this.#length + chunk.byteLength;
    let bytes = this.#bytes;
    const single = this.#single;
    if (bytes === undefined || bytes.byteLength < needed) {
      const grown = new Uint8Array(Math.max(needed, 2 * this.#length, 1024));
      if (single === undefined) grown.set(bytes!.subarray(0, this.#length));
      bytes = grown;
      this.#bytes = grown;
    }
    // The first piece, kept by reference, is copied in now: also into the memory a `clear()` kept.
    if (single !== undefined) {
      bytes.set(single);
      this.#single = undefined;
    }
    bytes.set(chunk, this.#length);
    this.#length = needed;
  }

  /** The bytes held (a view, valid until the next `push` or `clear`). */
  bytes(): Uint8Array {
    if (this.#single !== undefined) return this.#single;
    return this.#bytes === undefined ? new Uint8Array(0) : this.#bytes.subarray(0, this.#length);
  }

  /** Empties it (keeping its memory for the next bytes). */
  clear(): void {
    this.#single = undefined;
    this.#length = 0;
  }
}
