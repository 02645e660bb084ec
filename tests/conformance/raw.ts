import net from "node:net";

/** What a server answered to raw bytes: a response, or a connection that ended without one. */
export type RawAnswer =
  | { readonly kind: "response"; readonly status: number; readonly headers: Headers; readonly body: string }
  | { readonly kind: "closed" | "reset" | "timeout" };

// A raw connection: `onData` sees everything received so far and may settle the answer; the end of
// the connection settles it with `onEnd`'s answer. Settled once, then the socket is destroyed.
function connectRaw<TAnswer>(
  origin: string,
  timeout: number,
  onData: (data: Buffer, socket: net.Socket) => TAnswer | undefined,
  onEnd: (data: Buffer, how: "closed" | "reset" | "timeout") => TAnswer,
): { socket: net.Socket; answer: Promise<TAnswer> } {
  const url = new URL(origin);
  const socket = net.connect(Number(url.port), url.hostname);
  const answer = new Promise<TAnswer>((resolve) => {
    let data = Buffer.alloc(0);
    let settled = false;
    const done = (value: TAnswer): void => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeout, () => done(onEnd(data, "timeout")));
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const value = onData(data, socket);
      if (value !== undefined) done(value);
    });
    socket.on("end", () => done(onEnd(data, "closed")));
    socket.on("error", (error: NodeJS.ErrnoException) =>
      done(onEnd(data, error.code === "ECONNRESET" ? "reset" : "closed")),
    );
  });
  return { socket, answer };
}

/**
 * Sends raw bytes (what `fetch` would refuse to send: dot segments, absolute-form targets, bad Host
 * headers…) and reads the first response, with its body (by Content-Length or chunked).
 */
export function rawExchange(origin: string, bytes: string | Buffer, timeout = 3000): Promise<RawAnswer> {
  const { socket, answer } = connectRaw<RawAnswer>(
    origin,
    timeout,
    (data) => parseResponse(data),
    (data, how) => (how === "timeout" ? { kind: how } : (parseResponse(data, true) ?? { kind: how })),
  );
  socket.write(bytes);
  return answer;
}

function parseResponse(data: Buffer, ended = false): RawAnswer | undefined {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const [statusLine = "", ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const rest = data.subarray(end + 4);
  const length = headers.get("content-length");
  if (length !== null) {
    if (rest.length < Number(length) && !ended) return undefined;
    return { kind: "response", status, headers, body: rest.subarray(0, Number(length)).toString("utf8") };
  }
  if (headers.get("transfer-encoding")?.includes("chunked")) {
    const body = dechunk(rest);
    if (body === undefined && !ended) return undefined;
    return { kind: "response", status, headers, body: body ?? "" };
  }
  if (status === 101 || status === 204 || status === 304 || ended) {
    return { kind: "response", status, headers, body: rest.toString("utf8") };
  }
  return undefined;
}

function dechunk(data: Buffer): string | undefined {
  let offset = 0;
  let out = "";
  for (;;) {
    const lineEnd = data.indexOf("\r\n", offset);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
    if (size === 0) return out;
    if (data.length < lineEnd + 2 + size) return undefined;
    out += data.subarray(lineEnd + 2, lineEnd + 2 + size).toString("utf8");
    offset = lineEnd + 4 + size;
  }
}

/** What a server did after a websocket frame that breaks the protocol. */
export type FrameAnswer =
  | { readonly kind: "close"; readonly code: number | undefined }
  | { readonly kind: "closed" | "reset" | "timeout" | "refused" };

const KEY = "dGhlIHNhbXBsZSBub25jZQ==";

/**
 * Opens a websocket with a raw handshake, sends `frame` (raw bytes, possibly invalid), and reports the
 * close frame the server sent (its code), or how the connection ended without one.
 */
export function rawWebSocket(
  origin: string,
  path: string,
  frame: Buffer,
  timeout = 3000,
): Promise<FrameAnswer> {
  let upgraded = false;
  let offset = 0;
  const { socket, answer } = connectRaw<FrameAnswer>(
    origin,
    timeout,
    (data, connection) => {
      if (!upgraded) {
        const end = data.indexOf("\r\n\r\n");
        if (end < 0) return undefined;
        if (!data.subarray(0, 12).toString("latin1").includes(" 101")) return { kind: "refused" };
        upgraded = true;
        offset = end + 4;
        connection.write(frame);
      }
      const close = findClose(data.subarray(offset));
      return close === undefined ? undefined : { kind: "close", code: close };
    },
    (_data, how) => ({ kind: how }),
  );
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
      `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${KEY}\r\n\r\n`,
  );
  return answer;
}

// The code of the first close frame in server-to-client frames (unmasked), if one arrived whole.
function findClose(data: Buffer): number | undefined {
  let offset = 0;
  while (offset + 2 <= data.length) {
    const opcode = data[offset]! & 0x0f;
    let length = data[offset + 1]! & 0x7f;
    let start = offset + 2;
    if (length === 126) {
      if (data.length < offset + 4) return undefined;
      length = data.readUInt16BE(offset + 2);
      start = offset + 4;
    } else if (length === 127) {
      if (data.length < offset + 10) return undefined;
      length = Number(data.readBigUInt64BE(offset + 2));
      start = offset + 10;
    }
    if (data.length < start + length) return undefined;
    if (opcode === 8) return length >= 2 ? data.readUInt16BE(start) : 1005;
    offset = start + length;
  }
  return undefined;
}

/** A client frame: FIN and RSV bits, opcode, payload, masked unless `mask` is false. */
export function frame(first: number, payload: Buffer, mask = true): Buffer {
  const header = [first];
  if (payload.length < 126) header.push((mask ? 0x80 : 0) | payload.length);
  else header.push((mask ? 0x80 : 0) | 126, payload.length >> 8, payload.length & 0xff);
  if (!mask) return Buffer.concat([Buffer.from(header), payload]);
  const key = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ key[i % 4]!));
  return Buffer.concat([Buffer.from(header), key, masked]);
}

/** A POST whose body comes in chunks of one byte each (chunked transfer coding). */
export function oneByteChunks(path: string, type: string, body: Buffer): Buffer {
  const parts = [
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n`,
  ];
  for (const byte of body) parts.push(`1\r\n${String.fromCharCode(byte)}\r\n`);
  parts.push("0\r\n\r\n");
  return Buffer.from(parts.join(""), "latin1");
}
