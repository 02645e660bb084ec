import { request as httpRequest } from "node:http";
import WebSocket from "ws";

/** Where the app runs: cases that meet a documented runtime difference check that difference. */
export type Runtime = "in-process" | "node" | "deno" | "bun" | "workerd";

/** How the conformance cases reach an app: in-process, or over a real socket. */
export interface Client {
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Set for real servers: the `ws://` base and raw HTTP access. */
  readonly server?: { readonly origin: string };
  readonly runtime: Runtime;
  /** False where the host strips hop-by-hop headers such as `Upgrade` from responses (workerd does). */
  readonly keepsHopByHopHeaders: boolean;
}

/** A client for `app.request()`. */
export function inProcessClient(app: {
  request(path: string, init?: RequestInit): Promise<Response>;
}): Client {
  return {
    fetch: (path, init) => app.request(path, { redirect: "manual", ...init }),
    runtime: "in-process",
    keepsHopByHopHeaders: true,
  };
}

/** A client for a server listening at `origin` (e.g. `http://127.0.0.1:4321`). */
export function serverClient(origin: string, runtime: Runtime = "node"): Client {
  const base = origin.replace(/\/$/, "");
  return {
    fetch: (path, init) => fetch(base + path, { redirect: "manual", ...ownConnectionIfLarge(init) }),
    server: { origin: base },
    runtime,
    keepsHopByHopHeaders: runtime !== "workerd",
  };
}

// A body past 64 KiB is sent on a connection of its own (`Connection: close`). A server may answer it
// (413) before reading it all and then close the connection; Portico's Node adapter says so
// (`Connection: close`), but workerd does not, and fetch would otherwise send the next case's request on
// that closing connection ("fetch failed", a POST it does not retry). A client that sends too much is
// still refused; the cases after it no longer pay for it.
function ownConnectionIfLarge(init: RequestInit | undefined): RequestInit | undefined {
  const body = init?.body;
  const size = typeof body === "string" ? body.length : body instanceof Uint8Array ? body.byteLength : 0;
  if (size <= 64 * 1024) return init;
  return { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), connection: "close" } };
}

/** What a websocket session saw. */
export interface WsOutcome {
  readonly messages: (string | number[])[];
  readonly code: number | undefined;
  readonly reason: string;
  /** The HTTP status when the server refused the upgrade. */
  readonly status: number | undefined;
}

/**
 * Opens a websocket, sends `send` once open, and closes (1000) after `closeAfter` messages; resolves
 * when the connection is closed or refused. Bounded by a timeout.
 */
export function wsSession(
  origin: string,
  path: string,
  options: {
    send?: (string | Uint8Array)[];
    closeAfter?: number;
    timeout?: number;
    /** Called with each message as it arrives (to wait for one without a fixed sleep). */
    onMessage?: (message: string | number[]) => void;
    /** Headers of the upgrade request. */
    headers?: Record<string, string>;
  } = {},
): Promise<WsOutcome> {
  const messages: (string | number[])[] = [];
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(origin.replace(/^http/, "ws") + path, { headers: options.headers ?? {} });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error(`websocket ${path} timed out; got ${JSON.stringify(messages)}`));
    }, options.timeout ?? 5000);
    ws.on("open", () => {
      for (const item of options.send ?? []) ws.send(item);
    });
    ws.on("message", (data: Buffer, isBinary: boolean) => {
      const message = isBinary ? [...data] : data.toString("utf8");
      messages.push(message);
      options.onMessage?.(message);
      if (options.closeAfter !== undefined && messages.length >= options.closeAfter) ws.close(1000);
    });
    ws.on("close", (code: number, reason: Buffer) => {
      clearTimeout(timer);
      resolve({ messages, code, reason: reason.toString("utf8"), status: undefined });
    });
    ws.on("unexpected-response", (_request, response) => {
      clearTimeout(timer);
      response.resume();
      ws.terminate();
      resolve({ messages, code: undefined, reason: "", status: response.statusCode });
    });
    ws.on("error", (error) => {
      if (ws.readyState !== WebSocket.CLOSED) return;
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Sends a raw HTTP/1.1 request (headers `fetch` will not send) and returns status, headers and body. */
export function rawRequest(
  origin: string,
  path: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method, headers, timeout: 5000 },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: "" });
    });
    req.on("timeout", () => req.destroy(new Error("raw request timed out")));
    req.on("error", reject);
    req.end();
  });
}

/** A websocket that collects what it receives (text as strings, binary as byte arrays). */
export interface Member {
  readonly ws: WebSocket;
  readonly got: (string | number[])[];
}

/**
 * Opens a websocket and collects its messages; resolves once the server sends `ready` (not collected;
 * the text `"ready"` by default, or the text given), or at the open when `ready` is false.
 */
export function openMember(url: string, ready: boolean | string = true): Promise<Member> {
  const sign = ready === true ? "ready" : ready;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, "ws"));
    const got: (string | number[])[] = [];
    ws.on("message", (data: Buffer, binary: boolean) => {
      const value = binary ? [...data] : data.toString("utf8");
      if (sign !== false && value === sign) resolve({ ws, got });
      else got.push(value);
    });
    if (sign === false) ws.on("open", () => resolve({ ws, got }));
    ws.on("error", reject);
  });
}
