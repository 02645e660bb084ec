import type { App } from "../../src/mod.ts";
import type { Client } from "./client.ts";

/** One conformance case: a name and what it checks through a client (in-process or over a socket). */
export interface Case {
  readonly name: string;
  /** The case needs a real socket (websockets): `app.request()`'s run leaves it out. */
  readonly needsServer?: boolean;
  run(client: Client): Promise<void>;
}

/** A topic: the routes its cases need, registered on the fixture app, right beside those cases. */
export interface Topic {
  readonly name: string;
  /** Registers the topic's routes (each topic under paths of its own). */
  routes(app: App): void;
  readonly cases: readonly Case[];
}
