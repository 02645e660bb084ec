// A channel's declared messages: what a client may send (`in`) and what the channel sends (`out`), as
// JSON text frames. A received frame is parsed (within the JSON depth limit, no prototype keys) and
// validated before `onMessage` sees it; one that fails is answered by closing with 1007 and the first
// issue as the reason, unless the channel declares its own answer.
import type { SocketMessage, Topic } from "../context/socket.ts";
import { isHttpError } from "../errors/http-error.ts";
import { toJSON } from "../http/json.ts";
import { isCastText } from "../params/cast-text.ts";
import { parseJsonObject } from "../params/parse-json.ts";
import { declared } from "../schema/declared.ts";
import type { InferDeclaration, InputOf, SourceDeclaration } from "../schema/entries.ts";

/** The messages of a channel: schemas (valibot, any Standard Schema, or entries) of JSON objects. */
export interface ChannelMessages {
  /** What a client sends: validated on receipt, typed in `onMessage`. */
  readonly in?: SourceDeclaration;
  /** What the channel sends: typed in `send`, written as JSON. */
  readonly out?: SourceDeclaration;
}

/** What `onMessage` gets: the validated `in` message, or the raw frame when none is declared. */
export type InMessage<TMessages> = TMessages extends { readonly in: infer TIn }
  ? InferDeclaration<TIn>
  : SocketMessage;

/** What `send` takes: an `out` message (as its schema's input), or raw data when none is declared. */
export type OutMessage<TMessages> = TMessages extends { readonly out: infer TOut }
  ? InputOf<TOut>
  : string | Uint8Array | ArrayBuffer;

/** What a channel's topic carries: its `out` messages, or raw data when none is declared. */
export type TopicMessageOf<TMessages> = TMessages extends { readonly out: infer TOut }
  ? InputOf<TOut>
  : string | Uint8Array;

/** Why a received message was refused: the first issue (the close reason) and every one found. */
export interface InvalidMessage {
  /** The first issue, as the close reason says it (`Message "text" is missing`). */
  readonly message: string;
  /** Every issue found: where, and what. */
  readonly issues: readonly { readonly path: readonly string[]; readonly message: string }[];
}

/** A channel's messages, prepared once. */
export interface CompiledMessages {
  /** The validated message, or why it is refused. */
  read(
    message: SocketMessage,
    jsonDepth: number,
  ): { ok: true; value: unknown } | { ok: false; invalid: InvalidMessage };
  /** The text frame of an outgoing message (raw data passes as is when `out` is not declared). */
  write(value: unknown): string | Uint8Array | ArrayBuffer;
}

/** Prepares a channel's declared messages (a schema it cannot read throws, at definition time). */
export function compileMessages(messages: ChannelMessages | undefined): CompiledMessages | undefined {
  if (messages === undefined) return undefined;
  const incoming = messages.in === undefined ? undefined : declared(messages.in);
  const raw = (value: unknown) => value as string | Uint8Array | ArrayBuffer;
  return {
    read(message, jsonDepth) {
      if (incoming === undefined) return { ok: true, value: message };
      if (typeof message !== "string") return refuse([], "must be a JSON text frame, not binary");
      let value: unknown;
      try {
        value = parseJsonObject(message, jsonDepth);
      } catch (error) {
        return refuse([], isHttpError(error) && error.message ? parseFailure(error.message) : "is not JSON");
      }
      const validated = incoming.validate(value);
      if (validated.ok) return { ok: true, value: validated.value };
      const issues = validated.issues.slice(0, 20).map((issue) => {
        const path = issue.path.map(String);
        return {
          path,
          message: sentence(
            path,
            issue.missing
              ? "is missing"
              : isCastText(issue.message)
                ? issue.message
                : `is invalid: ${issue.message}`,
          ),
        };
      });
      return { ok: false, invalid: { message: issues[0]!.message, issues } };
    },
    write: messages.out === undefined ? raw : (value) => toJSON(value),
  };
}

/** A channel's topic: its messages written as the channel writes them (JSON with `out`, else as they are). */
export function channelTopic(name: string, messages: CompiledMessages | undefined): Topic<unknown> {
  if (typeof name !== "string" || name === "") throw new TypeError("A topic's name is a non-empty string");
  const write = messages?.write;
  return Object.freeze({
    name,
    encode: (message: unknown) => (write === undefined ? message : write(message)) as string | Uint8Array,
  });
}

function refuse(path: string[], text: string): { ok: false; invalid: InvalidMessage } {
  const message = sentence(path, text);
  return { ok: false, invalid: { message, issues: [{ path, message }] } };
}

// `Message "room.name" is missing`; the whole message when the path is empty.
function sentence(path: readonly string[], text: string): string {
  return path.length === 0 ? `Message ${text}` : `Message "${path.join(".")}" ${text}`;
}

// The JSON reader's words for a body, said of a message (`JSON body must be an object` → `must be an object`).
function parseFailure(text: string): string {
  if (text === "Missing request body") return "is empty";
  if (text === "Malformed JSON body") return "is not JSON";
  if (text.startsWith("JSON parameter ")) return text.slice("JSON parameter ".length);
  return text.replace(/^JSON body /, "");
}
