// The backplane's wire contract, written once: what a topic may be, and the frame a message travels in
// between instances (or from an emitter, `emitter.ts`).
//
// Version 1: one header line of JSON, "\n", then the message's bytes (UTF-8 for text).
//   {"v":1,"from":"<instance id>","binary":false}\n<message>
// `from` lets an instance skip its own messages coming back; `binary` keeps text and bytes apart.
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

/** A message framed for the backplane, from the instance `from`. */
export function encodeFrame(from: string, message: TopicMessage): Uint8Array {
  const binary = typeof message !== "string";
  const head = encoder.encode(`${JSON.stringify({ v: FRAME_VERSION, from, binary })}\n`);
  const body = binary ? message : encoder.encode(message);
  const frame = new Uint8Array(head.byteLength + body.byteLength);
  frame.set(head);
  frame.set(body, head.byteLength);
  return frame;
}

/** A frame's sender and message, or `undefined` for a frame this version cannot read. */
export function decodeFrame(frame: Uint8Array): { from: string; message: TopicMessage } | undefined {
  const newline = frame.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const head = JSON.parse(decoder.decode(frame.subarray(0, newline))) as {
      v?: unknown;
      from?: unknown;
      binary?: unknown;
    };
    if (head.v !== FRAME_VERSION || typeof head.from !== "string") return undefined;
    const body = frame.slice(newline + 1);
    return { from: head.from, message: head.binary === true ? body : decoder.decode(body) };
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
