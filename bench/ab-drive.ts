// One sample of bench/ab.ts, inside the bundle of one build: run in a fresh process for each sample, so
// that every sample of a build gets its own JIT (in one process, the two builds' copies of the same code
// compiled differently and shared Node's inline caches: an A/A gave "A slower" at 1.066 [1.008, 1.131]).
// With AB_SAMPLE set to `{ scenario, n, pure, check? }` it prints CPU µs per request over `n` requests
// after `n` of warm-up (or, with `check`, the first bytes of one answer).
import { IncomingMessage, ServerResponse } from "node:http";
import { Duplex } from "node:stream";

/** A request of the comparison. */
export interface Scenario {
  readonly id: string;
  readonly method: string;
  readonly url: string;
  readonly body: string;
  readonly status: number;
}

type Handle = (incoming: IncomingMessage, res: ServerResponse) => void;

/** Runs what AB_SAMPLE asks with the build's `handle`, prints the figure, and ends the process. */
export async function runSample(handle: Handle): Promise<void> {
  const asked = JSON.parse(process.env.AB_SAMPLE!) as {
    scenario: Scenario;
    n: number;
    pure: boolean;
    check?: boolean;
  };
  if (asked.check) {
    process.stdout.write(JSON.stringify(await once(handle, asked.scenario)));
    process.exit(0);
  }
  await sample(handle, asked.scenario, asked.n, asked.pure);
  process.stdout.write(String(await sample(handle, asked.scenario, asked.n, asked.pure)));
  process.exit(0);
}

// A socket that takes everything written and keeps the first bytes of an answer when asked.
class Sink extends Duplex {
  remoteAddress = "127.0.0.1";
  encrypted = false;
  kept = "";
  keep = false;
  override _read(): void {}
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    if (this.keep) this.kept += chunk.toString();
    done();
  }
}

function exchange(handle: Handle, scenario: Scenario, socket: Sink): Promise<void> {
  const incoming = new IncomingMessage(socket as never);
  incoming.method = scenario.method;
  incoming.url = scenario.url;
  incoming.httpVersionMajor = 1;
  incoming.httpVersionMinor = 1;
  incoming.httpVersion = "1.1";
  const raw = ["Host", "127.0.0.1:3000", "User-Agent", "wrk", "Accept", "*/*"];
  if (scenario.body !== "")
    raw.push("Content-Type", "application/json", "Content-Length", String(scenario.body.length));
  incoming.rawHeaders = raw;
  for (let i = 0; i < raw.length; i += 2) incoming.headers[raw[i]!.toLowerCase()] = raw[i + 1]!;
  if (scenario.body !== "") incoming.push(Buffer.from(scenario.body));
  incoming.push(null);
  incoming.complete = true; // as Node's parser says once the whole message is in
  const res = new ServerResponse(incoming);
  res.assignSocket(socket as never);
  const finished = new Promise<void>((resolve) => res.once("finish", resolve));
  handle(incoming, res);
  return finished.then(() => res.detachSocket(socket as never));
}

export async function once(handle: Handle, scenario: Scenario): Promise<string> {
  const socket = new Sink();
  socket.keep = true;
  await exchange(handle, scenario, socket);
  return socket.kept;
}

// CPU µs per request over `n` requests answered one after another.
export async function sample(handle: Handle, scenario: Scenario, n: number, pure: boolean): Promise<number> {
  if (pure) return samplePure(handle, scenario, n);
  const socket = new Sink();
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await exchange(handle, scenario, socket);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / n;
}

// `--pure`: Portico's JavaScript alone — the adapter given stand-ins for Node's request and response
// that record `writeHead` and `end`, so that Node's HTTP code (two thirds of a plain GET here) does not
// dilute what a change to Portico does. A body arrives as one `data` event and `end`, emitted once the
// adapter listens (as the socket would, on a later turn).
async function samplePure(handle: Handle, scenario: Scenario, n: number): Promise<number> {
  const raw = ["Host", "127.0.0.1:3000", "User-Agent", "wrk", "Accept", "*/*"];
  const body = Buffer.from(scenario.body);
  if (scenario.body !== "")
    raw.push("Content-Type", "application/json", "Content-Length", String(body.length));
  const socket = { remoteAddress: "127.0.0.1", encrypted: false };
  const listeners = new Map<string, (value?: unknown) => void>();
  const incoming = {
    method: scenario.method,
    url: scenario.url,
    rawHeaders: raw,
    socket,
    complete: true,
    on(event: string, listener: (value?: unknown) => void) {
      listeners.set(event, listener);
      return incoming;
    },
    once(event: string, listener: (value?: unknown) => void) {
      listeners.set(event, listener);
      return incoming;
    },
    off(event: string) {
      listeners.delete(event);
      return incoming;
    },
    pause() {},
  };
  let ended: (() => void) | undefined;
  let status = 0;
  const res = {
    req: incoming,
    headersSent: false,
    writeHead(code: number) {
      status = code;
    },
    end() {
      ended?.();
    },
    once() {},
  };
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    let done = false;
    ended = () => {
      done = true;
    };
    handle(incoming as never, res as never);
    if (scenario.body !== "") {
      await undefined;
      listeners.get("data")?.(body);
      listeners.get("end")?.();
      listeners.clear();
    }
    // A synchronous answer is written within the call; an asynchronous one is awaited.
    if (!done) await new Promise<void>((resolve) => (ended = resolve));
  }
  const used = process.cpuUsage(start);
  if (status !== scenario.status) throw new Error(`--pure ${scenario.id}: status ${status}`);
  return (used.user + used.system) / n;
}
