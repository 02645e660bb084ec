// A subscriber of a topic with a history joining with `since` (`sequencer.ts`): what it missed is read
// from the history and sent first, then what arrived for it meanwhile, but what the replay sent; or the
// recovery says there is a gap.
import type { Recovery } from "../context/socket.ts";
import type { TopicMessage } from "../runtime/runtime.ts";
import type { HistoryEntry, HistoryStore } from "./history.ts";

/** Delivers a message of a topic with a history to one subscriber, with its position. */
export type Deliver = (message: TopicMessage, position: string) => unknown;

/** A message of a topic with its epoch. */
export interface Numbered {
  readonly epoch: string;
  readonly entry: HistoryEntry;
}

/** A subscriber of a topic with a history. */
export interface Member {
  readonly deliver: Deliver;
  /** Live messages that arrived while the member replays. */
  held: Numbered[] | undefined;
  /** Where its replay ended: the line may still deliver messages up to there, which it has. */
  replayed: { readonly epoch: string; readonly seq: number } | undefined;
}

/** One topic's line on an instance: how far it has delivered, and who listens. */
export interface Line {
  epoch: string | undefined;
  last: number;
  /** A read of the history in flight: what arrives meanwhile waits in `pending`. */
  busy: boolean;
  readonly pending: Numbered[];
  readonly members: Map<object, Member>;
}

/** Replays what `member` missed after `position`, then what was held for it meanwhile. */
export async function replay(
  store: HistoryStore,
  size: number,
  topic: string,
  line: Line,
  member: Member,
  position: { readonly epoch: string; readonly seq: number },
  send: (epoch: string, entry: HistoryEntry) => void,
): Promise<Recovery> {
  const { epoch } = position;
  let at = position.seq;
  let replayed = 0;
  let gap: Recovery["gap"];
  try {
    for (;;) {
      const read = await store.read(topic, epoch, at, size);
      const first = read.entries[0];
      if (read.epoch !== epoch || (first !== undefined && first.seq > at + 1)) {
        gap = "expired";
        break;
      }
      for (const entry of read.entries) {
        at = entry.seq;
        replayed++;
        send(read.epoch, entry);
      }
      if (read.entries.length < size) {
        // A line that has not seen a message yet starts where the history ends.
        if (line.epoch === undefined) {
          line.epoch = epoch;
          line.last = at;
        }
        break;
      }
    }
  } catch {
    gap = "unavailable";
  }
  // What arrived meanwhile, but what was replayed.
  const held = member.held ?? [];
  member.held = undefined;
  if (gap === undefined) member.replayed = { epoch, seq: at };
  for (const { epoch: heldEpoch, entry } of held) {
    if (gap !== undefined || heldEpoch !== epoch || entry.seq > at) send(heldEpoch, entry);
  }
  return gap === undefined ? { recovered: true, replayed } : { recovered: false, replayed: 0, gap };
}
