// The typed client's websocket side: `client.chat.connect({ path, query })` opens a channel (declared
// with `messages: { in, out }`, it speaks JSON both ways) and gives its close as a code with the
// declared error it stands for. The types are in `types.ts`.
import { toWords } from "../wire/contract.ts";
import { encodeForm } from "./encode.ts";
import type { ChannelClose, ChannelCloseError, ChannelConnection, Raw } from "./types.ts";

/** A WebSocket constructor: the global one, or `ws`'s (which also takes headers). */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  options?: { headers?: Record<string, string> },
) => {
  binaryType: string;
  send(data: string | ArrayBuffer | Uint8Array): void;
  close(code?: number, reason?: string): void;
  // `any`: the DOM's `WebSocket` types each event by its name; `ws`'s, Deno's and Bun's differ again.
  // biome-ignore lint/suspicious/noExplicitAny: the one type every runtime's WebSocket accepts here.
  addEventListener(type: string, listener: (event: any) => void): void;
};

/** What the client knows of a channel route: which way it speaks JSON (declared `in`, `out`), its declared errors. */
export interface SocketRoute {
  /** The channel declares `in`: the client sends JSON. */
  readonly sendsJson: boolean;
  /** The channel declares `out`: the client parses JSON. */
  readonly receivesJson: boolean;
  readonly errors: readonly string[];
}

/**
 * Opens a channel connection once `target` (where the route is, read from the routes or the document)
 * is known: the connection is returned at once, and `opened` settles when the socket does.
 */
export function connect(
  target: Promise<{ readonly url: URL; readonly route: SocketRoute }>,
  input: Record<string, unknown>,
  Socket: WebSocketConstructor | undefined,
): ChannelConnection<unknown, unknown, unknown> {
  const listeners = new Set<(message: unknown) => void>();
  let socket: InstanceType<WebSocketConstructor> | undefined;
  let route: SocketRoute = { sendsJson: false, receivesJson: false, errors: [] };
  let open!: () => void;
  let fail!: (reason: unknown) => void;
  let settle!: (close: ChannelClose<unknown>) => void;
  const opened = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  opened.catch(() => {});
  const closed = new Promise<ChannelClose<unknown>>((resolve) => {
    settle = resolve;
  });
  target
    .then((found) => {
      route = found.route;
      const url = found.url;
      if (Socket === undefined)
        throw new TypeError("No WebSocket here: give createClient({ WebSocket }) (from `ws` on Node 20)");
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      if (input.query !== undefined) url.search = encodeForm(input.query, false).toString();
      const headers = input.headers as Record<string, string> | undefined;
      const bearer = input.bearer as string | undefined;
      // What a browser can send for a token: two subprotocols (see `src/ws/upgrade-token.ts`).
      const protocols = bearer === undefined ? undefined : ["bearer", `bearer.${bearer}`];
      const opening =
        headers === undefined && protocols === undefined
          ? new Socket(url.href)
          : new Socket(url.href, protocols, headers === undefined ? undefined : { headers });
      socket = opening;
      opening.binaryType = "arraybuffer";
      const byWords = new Map(route.errors.map((name) => [toWords(name), name]));
      opening.addEventListener("open", () => open());
      // A refused upgrade (a 401 from auth middleware) is an "error", then the close that settles the
      // connection; `ws` throws an "error" nobody listens to, which would bring the process down.
      opening.addEventListener("error", () => {});
      opening.addEventListener("close", (event: { code: number; reason: string }) => {
        const close = {
          code: event.code,
          reason: event.reason,
          error: closeError(event, byWords, route.sendsJson),
        };
        fail(close);
        settle(close);
      });
      opening.addEventListener("message", (event: { data: string | ArrayBuffer }) => {
        const message =
          route.receivesJson && typeof event.data === "string" ? JSON.parse(event.data) : event.data;
        for (const listener of listeners) listener(message);
      });
    })
    .catch((error: unknown) => {
      fail(error);
      settle({
        code: 1006,
        reason: error instanceof Error ? error.message : String(error),
        error: undefined,
      });
    });
  return {
    opened,
    closed,
    send(message) {
      if (socket === undefined) throw new TypeError("The channel is not open yet: await connection.opened");
      socket.send(route.sendsJson ? JSON.stringify(message) : (message as Raw));
    },
    onMessage(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close(code, reason) {
      if (socket !== undefined) socket.close(code ?? 1000, reason);
      else
        void opened.then(
          () => socket?.close(code ?? 1000, reason),
          () => {},
        );
    },
  };
}

function closeError(
  event: { code: number; reason: string },
  byWords: Map<string, string>,
  json: boolean,
): ChannelCloseError<unknown> | undefined {
  const declared = byWords.get(event.reason);
  if (declared !== undefined)
    return { name: declared, message: null } as unknown as ChannelCloseError<unknown>;
  if (event.code === 4000) return { name: "ParamsError", message: event.reason };
  if (event.code === 1007 && json) return { name: "InvalidMessage", message: event.reason };
  return undefined;
}
