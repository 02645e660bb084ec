// Topics with a history over NATS JetStream (`nats.ts`, `createApp({ history })`).
//
// Each such topic is a stream (`<prefix>-h_<token>`, subject `<prefix>-h.<token>`) holding its last
// `size` frames for `ttl` seconds: one topic per stream, so the stream's sequence numbers are the
// topic's positions, without holes, and the stream's creation time names its epoch. Each instance with
// a subscriber reads the stream with an ordered consumer from the messages appended after it joined:
// every instance receives a topic's frames in the order of their numbers, and the consumer resumes
// where it was after a reconnection. A frame is stored as its open head, a newline and its body; the
// position closes the head when it is read.
//
// Appends carry `Nats-Msg-Id` (publisher and counter) and are sent in order (`resend.ts`): one sent
// again after a dropped connection is recognised within the stream's duplicate window and skipped.
// Streams whose frames have all expired and that no instance reads are removed by a sweep (`ttl`
// apart): the topic's next append starts a new epoch, as a Redis history that expired does.
import type {
  Consumer,
  ConsumerMessages,
  JetStreamClient,
  JetStreamManager,
  StreamInfo,
} from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { optionalPeer } from "../runtime/optional-peer.ts";
import type { DriverHistoryRead } from "./driver.ts";
import type { HistoryLimits } from "./history.ts";
import { OrderedAppends } from "./resend.ts";

type JetStreamModule = typeof import("@nats-io/jetstream");

const NEWLINE = 10;
// JetStream's API error codes.
const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;
const encoder = new TextEncoder();

/** What the history needs from the NATS driver. */
export interface NatsLink {
  /** The connection, once made. */
  connection(): Promise<NatsConnection>;
  /** Whether it is up now. */
  connected(): boolean;
  /** A topic as a subject token. */
  token(topic: string): string;
  /** Where failures go. */
  report(error: unknown): void;
}

interface Reader {
  stopped: boolean;
  // Made again (after a reconnection), from where it was.
  renewing: boolean;
  messages: ConsumerMessages | undefined;
  consumer: Consumer | undefined;
}

/** The history side of the NATS driver: streams, their readers, appends (in order, once), reads. */
export class NatsHistory {
  readonly #prefix: string;
  readonly #link: NatsLink;
  readonly #storage: "file" | "memory";
  readonly #appends: OrderedAppends;
  // A topic's stream, made sure of: its epoch.
  readonly #streams = new Map<string, Promise<string>>();
  readonly #readers = new Map<string, Reader>();
  #clients: Promise<{ js: JetStreamClient; jsm: JetStreamManager; lib: JetStreamModule }> | undefined;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(prefix: string, link: NatsLink, storage: "file" | "memory") {
    this.#prefix = `${prefix}-h`;
    this.#link = link;
    this.#storage = storage;
    this.#appends = new OrderedAppends({
      ready: () => link.connected(),
      final: (error) => this.#final(error),
    });
  }

  /** Reads a topic's stream while this instance has a subscriber to it. */
  subscribe(topic: string, limits: HistoryLimits, receive: (topic: string, frame: Uint8Array) => void): void {
    if (this.#readers.has(topic)) return;
    const reader: Reader = { stopped: false, renewing: false, messages: undefined, consumer: undefined };
    this.#readers.set(topic, reader);
    void (async () => {
      let epoch: string | undefined;
      let next: number | undefined;
      let reported = false;
      while (!reader.stopped) {
        try {
          const { js, lib } = await this.#client();
          const current = await this.#ensure(topic, limits);
          if (current !== epoch) next = undefined;
          epoch = current;
          const consumer = await js.consumers.get(
            this.#stream(topic),
            next === undefined
              ? { deliver_policy: lib.DeliverPolicy.New }
              : { deliver_policy: lib.DeliverPolicy.StartSequence, opt_start_seq: next },
          );
          reader.consumer = consumer;
          if (!reader.stopped) {
            reader.renewing = false;
            reader.messages = await consumer.consume();
            reported = false;
            for await (const message of reader.messages) {
              next = message.seq + 1;
              receive(topic, closeFrame(current, message.seq, message.data));
            }
          }
        } catch (error) {
          // A stream removed (swept by another instance, or by hand) is made again, at once.
          const gone = (error as { code?: unknown }).code === STREAM_NOT_FOUND;
          if (!reported && !gone && !reader.stopped && !reader.renewing)
            this.#link.report(
              new Error(`Reading topic "${topic}"'s history failed: retrying`, { cause: error }),
            );
          reported ||= !gone;
          this.#streams.delete(topic);
          if (gone) continue;
        }
        // The server would keep an abandoned consumer for minutes (and the stream with it).
        reader.consumer?.delete().catch(() => {});
        reader.consumer = undefined;
        if (!reader.stopped && !reader.renewing) await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
  }

  /** Stops reading a topic's stream. */
  unsubscribe(topic: string): void {
    const reader = this.#readers.get(topic);
    if (reader === undefined) return;
    reader.stopped = true;
    this.#readers.delete(topic);
    void reader.messages?.close();
  }

  /** Appends a frame (open head, body) to the topic's stream: numbered there, received by every reader. */
  append(topic: string, head: string, body: Uint8Array, limits: HistoryLimits): Promise<boolean> {
    const opened = encoder.encode(`${head}\n`);
    const stored = new Uint8Array(opened.byteLength + body.byteLength);
    stored.set(opened);
    stored.set(body, opened.byteLength);
    return this.#appends.add((counter) => async () => {
      const { js } = await this.#client();
      await this.#ensure(topic, limits);
      try {
        await js.publish(this.#subject(topic), stored, { msgID: `${this.#appends.publisher}:${counter}` });
      } catch (error) {
        // No stream took it (removed meanwhile): made again when it is sent again.
        this.#streams.delete(topic);
        throw error;
      }
    });
  }

  /** Up to `limit` frames after `seq` of `epoch` (else from the oldest kept). */
  async read(
    topic: string,
    epoch: string | undefined,
    seq: number,
    limit: number,
  ): Promise<DriverHistoryRead> {
    const { js, jsm, lib } = await this.#client();
    let info: StreamInfo;
    try {
      info = await jsm.streams.info(this.#stream(topic));
    } catch (error) {
      if ((error as { code?: unknown }).code === STREAM_NOT_FOUND) return { epoch: "", frames: [] };
      throw error;
    }
    const found = epochOf(info);
    const { state } = info;
    const first = Math.max(state.first_seq, found === epoch ? seq + 1 : 0);
    const wanted = Math.min(limit, state.last_seq - first + 1);
    if (state.messages === 0 || wanted <= 0) return { epoch: found, frames: [] };
    const consumer = await js.consumers.get(this.#stream(topic), {
      deliver_policy: lib.DeliverPolicy.StartSequence,
      opt_start_seq: first,
    });
    const frames: Uint8Array[] = [];
    const batch = await consumer.fetch({ max_messages: wanted, expires: 5000 });
    try {
      for await (const message of batch) {
        frames.push(closeFrame(found, message.seq, message.data));
        if (frames.length >= wanted || message.info.pending === 0) break;
      }
    } finally {
      consumer.delete().catch(() => {});
    }
    return { epoch: found, frames };
  }

  /**
   * The connection is ready (again): sends what waits, in order, and makes the readers again from
   * where they were (a consumer would otherwise find the restarted server only when its heartbeats
   * are missed, seconds later).
   */
  resume(): void {
    this.#appends.resume();
    for (const reader of this.#readers.values()) {
      if (reader.messages === undefined) continue;
      reader.renewing = true;
      void reader.messages.close();
    }
  }

  /** Fails every append waiting; stops the readers and the sweep. */
  close(error: Error): void {
    this.#appends.fail(error);
    for (const topic of [...this.#readers.keys()]) this.unsubscribe(topic);
    clearInterval(this.#sweeper);
  }

  /** Fails every append waiting (the connection is replaced for not answering). */
  fail(error: Error): void {
    this.#appends.fail(error);
  }

  #client(): Promise<{ js: JetStreamClient; jsm: JetStreamManager; lib: JetStreamModule }> {
    this.#clients ??= (async () => {
      const lib = await optionalPeer(
        "@nats-io/jetstream",
        "createApp({ history }) with portico/pubsub/nats",
        () => import("@nats-io/jetstream"),
      );
      const nc = await this.#link.connection();
      try {
        return { js: lib.jetstream(nc), jsm: await lib.jetstreamManager(nc), lib };
      } catch (error) {
        if ((error as Error).name !== "JetStreamNotEnabled") throw error;
        throw new JetStreamMissing();
      }
    })();
    this.#clients.catch(() => {
      this.#clients = undefined;
    });
    return this.#clients;
  }

  #stream(topic: string): string {
    return `${this.#prefix}_${this.#link.token(topic)}`;
  }

  #subject(topic: string): string {
    return `${this.#prefix}.${this.#link.token(topic)}`;
  }

  // Makes sure a topic's stream exists with the app's limits; its epoch.
  #ensure(topic: string, limits: HistoryLimits): Promise<string> {
    let made = this.#streams.get(topic);
    if (made === undefined) {
      made = this.#make(topic, limits);
      this.#streams.set(topic, made);
      made.catch(() => this.#streams.delete(topic));
      this.#sweep(limits);
    }
    return made;
  }

  async #make(topic: string, limits: HistoryLimits): Promise<string> {
    const { jsm, lib } = await this.#client();
    const ttl = limits.ttl * 1e9;
    const config = {
      name: this.#stream(topic),
      subjects: [this.#subject(topic)],
      max_msgs: limits.size,
      max_age: ttl,
      duplicate_window: Math.min(ttl, 120e9),
      discard: lib.DiscardPolicy.Old,
      storage: this.#storage === "memory" ? lib.StorageType.Memory : lib.StorageType.File,
    };
    try {
      return epochOf(await jsm.streams.add(config));
    } catch (error) {
      // Made before with other limits (the app's changed): they are the app's now.
      if (!(error instanceof lib.JetStreamApiError) || error.code !== STREAM_NAME_IN_USE) throw error;
      return epochOf(await jsm.streams.update(config.name, config));
    }
  }

  // Once running, every `ttl` (at most ten minutes): streams whose frames all expired and that nobody
  // reads are removed.
  #sweep(limits: HistoryLimits): void {
    if (this.#sweeper !== undefined) return;
    const every = Math.min(limits.ttl, 600) * 1000;
    this.#sweeper = setInterval(() => {
      void (async () => {
        const { jsm } = await this.#client();
        for await (const info of jsm.streams.list(`${this.#prefix}.>`)) {
          const { state } = info;
          if (state.messages > 0 || state.consumer_count > 0) continue;
          if (Date.now() - Date.parse(state.last_ts) < limits.ttl * 1000) continue;
          await jsm.streams.delete(info.config.name);
        }
      })().catch((error: unknown) => this.#link.report(error));
    }, every);
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  // The broker's answer (no JetStream, a stream it refuses) is final; a connection's failure is sent
  // again.
  #final(error: unknown): boolean {
    if (error instanceof JetStreamMissing) return true;
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === "number" && code !== STREAM_NOT_FOUND && code >= 10000;
  }
}

// The server runs without JetStream.
class JetStreamMissing extends Error {
  constructor() {
    super(
      "NATS JetStream is not enabled on the server: topics with a history (createApp({ history })) are kept there; run nats-server with -js",
    );
  }
}

// An epoch from the stream's creation time (letters and digits only: a position is `<epoch>:<seq>`).
function epochOf(info: StreamInfo): string {
  return info.created.replace(/[^0-9A-Za-z]/g, "");
}

// The frame as received: the stored head closed with its position, then the body.
function closeFrame(epoch: string, seq: number, data: Uint8Array): Uint8Array {
  const end = data.indexOf(NEWLINE);
  const close = encoder.encode(`,"at":"${epoch}:${seq}"}\n`);
  const frame = new Uint8Array(end + close.byteLength + data.byteLength - end - 1);
  frame.set(data.subarray(0, end));
  frame.set(close, end);
  frame.set(data.subarray(end + 1), end + close.byteLength);
  return frame;
}
