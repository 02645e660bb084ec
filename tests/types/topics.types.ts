// Type tests of typed topics: `Chat.topic(name)` carries the channel's `out` messages to `app.publish`,
// `ch.publish` and `topicEmitter().publish`; another shape is a type error, plain topics take text or bytes.
import * as v from "valibot";
import { createApp, defineChannel, type Topic } from "../../src/mod.ts";
import type { PubSubDriver } from "../../src/pubsub/driver.ts";
import { topicEmitter } from "../../src/pubsub/emitter.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

const Chat = defineChannel({
  messages: { in: { text: v.string() }, out: { from: v.string(), text: v.string() } },
  onMessage(ch, message) {
    const room = Chat.topic("room:1");
    ch.subscribe(room);
    ch.publish(room, { from: "me", text: message.text }, { self: true });
    // @ts-expect-error the channel's `out` has no `body`
    ch.publish(room, { from: "me", body: message.text });
    ch.publish("room:plain", "text stays text");
    // @ts-expect-error a plain topic takes text or bytes, not objects
    ch.publish("room:plain", { text: "x" });
    ch.unsubscribe(room);
  },
});
const Raw = defineChannel({ onMessage: () => {} });

type ChatMessage = ReturnType<typeof Chat.topic> extends Topic<infer T> ? T : never;
type RawMessage = ReturnType<typeof Raw.topic> extends Topic<infer T> ? T : never;
type _chat = Expect<Equal<Simplify<ChatMessage>, { from: string; text: string }>>;
type _raw = Expect<Equal<RawMessage, string | Uint8Array>>;

const app = createApp();
app.publish(Chat.topic("room:1"), { from: "server", text: "hi" });
// @ts-expect-error `text` must be a string
app.publish(Chat.topic("room:1"), { from: "server", text: 1 });
// @ts-expect-error a typed topic does not take raw text
app.publish(Chat.topic("room:1"), "hi");
app.publish(Raw.topic("raw"), new Uint8Array([1]));
app.publish("plain", "hi");

declare const driver: PubSubDriver;
const emitter = topicEmitter(driver);
void emitter.publish(Chat.topic("room:1"), { from: "job", text: "done" });
// @ts-expect-error missing `from`
void emitter.publish(Chat.topic("room:1"), { text: "done" });

// The message is checked against the topic's type, not widened to fit it.
declare const anything: unknown;
// @ts-expect-error an unknown value is not the channel's `out` message
app.publish(Chat.topic("room:1"), anything);
// @ts-expect-error nor is any object
app.publish(Chat.topic("room:1"), {} as object);
