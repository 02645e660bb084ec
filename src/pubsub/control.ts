// Cross-instance control: sockets tagged by the app (`socket.tag("user:42")`), and what the app asks of
// every socket with a tag, on every instance (`app.disconnect({ tag })`, `app.join`, `app.leave`). A
// command is applied here and sent to the other instances on the backplane's control topic.
import { isSendableCloseCode } from "../context/socket.ts";
import { checkTopic } from "./frame.ts";

/** What a command reaches: the sockets with this tag, on every instance. */
export interface ControlTarget {
  /** The tag the sockets were given (`socket.tag(name)`). */
  readonly tag: string;
}

/** A command to every socket with a tag. */
export type ControlCommand =
  | { readonly op: "disconnect"; readonly tag: string; readonly code: number; readonly reason: string }
  | { readonly op: "join" | "leave"; readonly tag: string; readonly topic: string };

/** What a command acts on: a socket. */
export interface Controlled {
  close(code: number, reason: string): void;
  subscribe(topic: string): void;
  unsubscribe(topic: string): void;
}

/** The tags of one app's sockets. */
export class Tags {
  readonly #tagged = new Map<string, Set<Controlled>>();
  readonly #of = new WeakMap<object, string[]>();

  /** Tags a socket. */
  add(socket: Controlled, name: string): void {
    checkTopic(name, "tag");
    const names = this.#of.get(socket);
    if (names?.includes(name)) return;
    if (names === undefined) this.#of.set(socket, [name]);
    else names.push(name);
    const sockets = this.#tagged.get(name);
    if (sockets === undefined) this.#tagged.set(name, new Set([socket]));
    else sockets.add(socket);
  }

  /** A socket's tags. */
  of(socket: object): string[] {
    return [...(this.#of.get(socket) ?? [])];
  }

  /** Forgets a socket (it closed). */
  drop(socket: object): void {
    for (const name of this.#of.get(socket) ?? []) {
      const sockets = this.#tagged.get(name);
      sockets?.delete(socket as Controlled);
      if (sockets?.size === 0) this.#tagged.delete(name);
    }
    this.#of.delete(socket);
  }

  /** Applies a command to this instance's sockets with its tag. */
  apply(command: ControlCommand): void {
    const sockets = this.#tagged.get(command.tag);
    if (sockets === undefined) return;
    for (const socket of [...sockets]) {
      try {
        if (command.op === "disconnect") socket.close(command.code, command.reason);
        else if (command.op === "join") socket.subscribe(command.topic);
        else socket.unsubscribe(command.topic);
      } catch {
        // A socket closing meanwhile: the others still get the command.
      }
    }
  }
}

/** A command read from another instance, or `undefined` when it is not one. */
export function readCommand(text: unknown): ControlCommand | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value.tag !== "string") return undefined;
    if (value.op === "disconnect" && isSendableCloseCode(value.code) && typeof value.reason === "string") {
      return { op: "disconnect", tag: value.tag, code: value.code, reason: value.reason };
    }
    if ((value.op === "join" || value.op === "leave") && typeof value.topic === "string") {
      return { op: value.op, tag: value.tag, topic: value.topic };
    }
  } catch {
    // Not JSON: not a command.
  }
  return undefined;
}
