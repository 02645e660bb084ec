// Topics with a history over Redis (`redis.ts`, `createApp({ history })`).
//
// Each such topic keeps, beside its channel, a hash (its epoch, its last number, each publisher's last
// append) and a stream of its frames, both named with the topic as hash tag so that a cluster keeps
// them in one slot. One script numbers a frame, stores it and publishes it: every instance receives a
// topic's frames in the order of their numbers.
//
// An append whose connection drops before the answer may or may not have been run. It is sent again
// when the connection is back, with every append after it, in order; the script recognises one it
// already ran by its publisher's counter and skips it. So a Redis restart loses and repeats nothing.
import type { DriverHistoryRead } from "./driver.ts";
import type { HistoryLimits } from "./history.ts";
import { newEpoch } from "./history.ts";

// KEYS: meta, stream. ARGV: new epoch, open head, body, size, ttl (s), channel, publisher, counter.
const APPEND = `
local last = tonumber(redis.call('HGET', KEYS[1], 'p:' .. ARGV[7]) or '0')
if last >= tonumber(ARGV[8]) then return 0 end
redis.call('HSET', KEYS[1], 'p:' .. ARGV[7], ARGV[8])
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch then
  epoch = ARGV[1]
  redis.call('DEL', KEYS[2])
  redis.call('HSET', KEYS[1], 'epoch', epoch)
end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local frame = ARGV[2] .. ',"at":"' .. epoch .. ':' .. seq .. '"}\\n' .. ARGV[3]
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], '0-' .. seq, 'f', frame)
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
redis.call('PUBLISH', ARGV[6], frame)
return seq`;

// KEYS: meta, stream. ARGV: epoch asked for, number after which to read, count.
const READ = `
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch then return {'', {}} end
local start = '-'
if epoch == ARGV[1] then start = '(0-' .. ARGV[2] end
return {epoch, redis.call('XRANGE', KEYS[2], start, '+', 'COUNT', ARGV[3])}`;

/** The connection the history talks through (node-redis's client). */
export interface RedisConnection {
  readonly isReady: boolean;
  sendCommand<T>(args: readonly (string | Buffer)[], options?: { typeMapping?: object }): Promise<T>;
}

/** What `redis.ts` hands over from the `redis` package (loaded once, there). */
export interface RedisTools {
  /** Whether an error is Redis's answer (a script error), not the connection's. */
  isReply(error: unknown): boolean;
  /** The type mapping that reads bulk strings as `Buffer`s. */
  readonly buffers: object;
}

interface Append {
  readonly command: (string | Buffer)[];
  readonly done: (ok: boolean) => void;
  readonly fail: (error: unknown) => void;
  inFlight: boolean;
  attempts: number;
}

/** The history side of the Redis driver: appends (in order, once), reads. */
export class RedisHistory {
  readonly #prefix: string;
  readonly #connection: () => RedisConnection;
  readonly #tools: RedisTools;
  // Appends not yet answered, in the order they were made (their counters').
  readonly #unanswered = new Map<number, Append>();
  // An append failed: the ones after it wait until it is sent again.
  #held = false;
  readonly #appender = crypto.randomUUID();
  #counter = 0;

  constructor(prefix: string, connection: () => RedisConnection, tools: RedisTools) {
    this.#prefix = prefix;
    this.#connection = connection;
    this.#tools = tools;
  }

  #keys(topic: string): string[] {
    return [`${this.#prefix}{${topic}}:meta`, `${this.#prefix}{${topic}}:history`];
  }

  /** Numbers, stores and publishes a frame; waits for a connection that is coming back. */
  append(topic: string, head: string, body: Uint8Array, limits: HistoryLimits): Promise<boolean> {
    const counter = ++this.#counter;
    const command = [
      "EVAL",
      APPEND,
      "2",
      ...this.#keys(topic),
      newEpoch(),
      head,
      Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      String(limits.size),
      String(limits.ttl),
      this.#prefix + topic,
      this.#appender,
      String(counter),
    ];
    return new Promise((done, fail) => {
      const append: Append = { command, done, fail, inFlight: false, attempts: 0 };
      this.#unanswered.set(counter, append);
      if (this.#connection().isReady && !this.#held) this.#send(counter, append);
    });
  }

  /** Up to `limit` frames after `seq` of `epoch` (else from the oldest kept). */
  async read(
    topic: string,
    epoch: string | undefined,
    seq: number,
    limit: number,
  ): Promise<DriverHistoryRead> {
    const connection = this.#connection();
    if (!connection.isReady) throw new Error("Redis is unreachable: the history cannot be read");
    const [found, entries] = await connection.sendCommand<[Buffer, [Buffer, Buffer[]][]]>(
      ["EVAL", READ, "2", ...this.#keys(topic), epoch ?? "", String(seq), String(limit)],
      { typeMapping: this.#tools.buffers },
    );
    return {
      epoch: found.toString(),
      frames: entries.map(([, fields]) => {
        const frame = fields[1]!;
        return new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength);
      }),
    };
  }

  /** The connection is ready (again): sends what waits, in order, once none is in flight. */
  resume(): void {
    const connection = this.#connection();
    if (!connection.isReady) return;
    for (const append of this.#unanswered.values()) if (append.inFlight) return;
    this.#held = false;
    for (const [counter, append] of this.#unanswered) this.#send(counter, append);
  }

  /** Fails every append waiting (the app closes, or the connection is replaced for not answering). */
  fail(error: Error): void {
    for (const [counter, append] of this.#unanswered) {
      if (append.inFlight) continue;
      this.#unanswered.delete(counter);
      append.fail(error);
    }
  }

  #send(counter: number, append: Append): void {
    append.inFlight = true;
    append.attempts++;
    this.#connection()
      .sendCommand(append.command)
      .then(
        () => {
          this.#unanswered.delete(counter);
          append.done(true);
        },
        (error: unknown) => {
          append.inFlight = false;
          if (this.#tools.isReply(error) || append.attempts >= 5) {
            this.#unanswered.delete(counter);
            append.fail(error);
            return;
          }
          this.#held = true;
          this.resume();
        },
      );
  }
}
