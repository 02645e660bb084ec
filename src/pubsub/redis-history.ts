// Topics with a history over Redis (`redis.ts`, `createApp({ history })`).
//
// Each such topic keeps, beside its channel, a hash (its epoch, its last number, each publisher's last
// append) and a stream of its frames, both named with the topic as hash tag so that a cluster keeps
// them in one slot. One script numbers a frame, stores it and publishes it: every instance receives a
// topic's frames in the order of their numbers.
//
// Appends are sent in order and applied once (`resend.ts`): the script recognises one it already ran
// by its publisher's counter and skips it.
import type { DriverHistoryRead } from "./driver.ts";
import type { HistoryLimits } from "./history.ts";
import { newEpoch } from "./history.ts";
import { OrderedAppends } from "./resend.ts";

// Behind a Sentinel, the history is numbered by one master's data: a topic last numbered under another
// replication id (a failover promoted a replica, which may lack the last appends, or the master
// restarted) starts a new epoch rather than reuse numbers. Each publisher's last append is kept, so an
// append the replica did receive is still recognised when sent again.
const LINEAGE = `
local function lineage()
  return string.match(redis.call('INFO', 'replication'), 'master_replid:(%w+)')
end`;

// KEYS: meta, stream. ARGV: new epoch, open head, body, size, ttl (s), channel, publisher, counter,
// the publish command (SPUBLISH in a cluster: the channel is in the keys' slot), '1' behind a Sentinel.
const APPEND = `${LINEAGE}
if ARGV[10] == '1' then
  local id = lineage()
  if redis.call('HGET', KEYS[1], 'r') ~= id then
    redis.call('HDEL', KEYS[1], 'epoch', 'seq')
    redis.call('HSET', KEYS[1], 'r', id)
  end
end
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
redis.call(ARGV[9], ARGV[6], frame)
return seq`;

// KEYS: meta, stream. ARGV: epoch asked for, number after which to read, count, '1' behind a Sentinel.
const READ = `${LINEAGE}
local epoch = redis.call('HGET', KEYS[1], 'epoch')
if not epoch or (ARGV[4] == '1' and redis.call('HGET', KEYS[1], 'r') ~= lineage()) then return {'', {}} end
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
  /** A topic's channel. */
  channel(topic: string): string;
  /** `PUBLISH`, or `SPUBLISH` (sharded pub/sub, in a cluster). */
  readonly publish: "PUBLISH" | "SPUBLISH";
  /** Behind a Sentinel: a master's replication id is checked on each append and read. */
  readonly replicated: boolean;
  /** Whether an error is Redis's final answer (a script error), not the connection's nor a "not now". */
  isReply(error: unknown): boolean;
  /** Whether an error is any answer of Redis (the command was refused, not applied). */
  isAnswer(error: unknown): boolean;
  /** The type mapping that reads bulk strings as `Buffer`s. */
  readonly buffers: object;
}

/** The history side of the Redis driver: appends (in order, once: `resend.ts`), reads. */
export class RedisHistory {
  readonly #prefix: string;
  readonly #connection: () => RedisConnection;
  readonly #tools: RedisTools;
  readonly #appends: OrderedAppends;

  constructor(prefix: string, connection: () => RedisConnection, tools: RedisTools) {
    this.#prefix = prefix;
    this.#connection = connection;
    this.#tools = tools;
    this.#appends = new OrderedAppends({
      ready: () => connection().isReady,
      final: (error) => tools.isReply(error),
      refused: (error) => tools.isAnswer(error),
    });
  }

  #keys(topic: string): string[] {
    return [`${this.#prefix}{${topic}}:meta`, `${this.#prefix}{${topic}}:history`];
  }

  /** Numbers, stores and publishes a frame; waits for a connection that is coming back. */
  append(topic: string, head: string, body: Uint8Array, limits: HistoryLimits): Promise<boolean> {
    return this.#appends.add((counter) => {
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
        this.#tools.channel(topic),
        this.#appends.publisher,
        String(counter),
        this.#tools.publish,
        this.#tools.replicated ? "1" : "",
      ];
      return () => this.#connection().sendCommand(command);
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
      [
        ...["EVAL", READ, "2", ...this.#keys(topic), epoch ?? "", String(seq), String(limit)],
        this.#tools.replicated ? "1" : "",
      ],
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

  /** The connection is ready (again): sends what waits, in order. */
  resume(): void {
    this.#appends.resume();
  }

  /** Fails every append waiting (the app closes, or the connection is replaced for not answering). */
  fail(error: Error): void {
    this.#appends.fail(error);
  }
}
