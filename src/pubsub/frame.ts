// The backplane's wire contract, written once: what a topic may be, and the frame a message travels in
// between instances (or from an emitter, `emitter.ts`).
//
// Version 1: one header line of JSON, "\n", then the message's bytes (UTF-8 for text).
//   {"v":1,"from":"<instance id>","binary":false}\n<message>
// `from` lets an instance skip its own messages coming back; `binary` keeps text and bytes apart.
// A topic with a history (`history.ts`) adds `"at":"<epoch>:<seq>"`, its position, written by the
// broker's side as it numbers the message, and its publisher may add `"skip":<n>` (its own token for
// the socket to leave out). Readers ignore fields they do not know.
// A frame of another version, or one that does not parse, is ignored (and counted by the hub).
import type { TopicMessage } from "../runtime/runtime.ts";

/**
 * The topic that carries cross-instance control commands (`control.ts`): it has a control character,
 * which no app topic may have, so it cannot be published to by an app.
 */
export const CONTROL_TOPIC = "\u0000control";

/** The frame version this code writes and reads. */
const FRAME_VERSION = 1;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A frame's head left open (no closing brace, no newline) and its body: a broker's history script
 * numbers the message and closes the head with `,"at":"<epoch>:<seq>"}` and the newline.
 */
export function openFrame(
  from: string,
  message: TopicMessage,
  skip?: number,
): { head: string; body: Uint8Array } {
  const binary = typeof message !== "string";
  const json = JSON.stringify(
    skip === undefined ? { v: FRAME_VERSION, from, binary } : { v: FRAME_VERSION, from, binary, skip },
  );
  return { head: json.slice(0, -1), body: binary ? message : encoder.encode(message) };
}

/** The frame of an open head and body. */
function closeFrame(head: string, body: Uint8Array): Uint8Array {
  const closed = encoder.encode(`${head}}\n`);
  const frame = new Uint8Array(closed.byteLength + body.byteLength);
  frame.set(closed);
  frame.set(body, closed.byteLength);
  return frame;
}

/** A message framed for the backplane, from the instance `from`. */
export function encodeFrame(from: string, message: TopicMessage): Uint8Array {
  const { head, body } = openFrame(from, message);
  return closeFrame(head, body);
}

/** What a frame carries. */
export interface DecodedFrame {
  readonly from: string;
  readonly message: TopicMessage;
  /** Its position in the topic's history (topics with a history). */
  readonly at: string | undefined;
  /** The publisher's token for the socket to leave out. */
  readonly skip: number | undefined;
}

/** A frame's sender and message, or `undefined` for a frame this version cannot read. */
export function decodeFrame(frame: Uint8Array): DecodedFrame | undefined {
  const newline = frame.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const head = JSON.parse(decoder.decode(frame.subarray(0, newline))) as {
      v?: unknown;
      from?: unknown;
      binary?: unknown;
      at?: unknown;
      skip?: unknown;
    };
    if (head.v !== FRAME_VERSION || typeof head.from !== "string") return undefined;
    const body = frame.slice(newline + 1);
    return {
      from: head.from,
      message: head.binary === true ? body : decoder.decode(body),
      at: typeof head.at === "string" ? head.at : undefined,
      skip: typeof head.skip === "number" ? head.skip : undefined,
    };
  } catch {
    return undefined;
  }
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Throws unless `topic` (or a socket's tag: `what`) is 1 to 256 characters without control characters. */
export function checkTopic(topic: string, what: "topic" | "tag" = "topic"): void {
  if (typeof topic !== "string" || topic === "" || topic.length > 256 || hasControlCharacter(topic)) {
    throw new TypeError(`A ${what} is a string of 1 to 256 characters without control characters`);
  }
}
