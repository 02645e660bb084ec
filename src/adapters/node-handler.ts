import type { IncomingMessage, ServerResponse } from "node:http";
import { type PartsFetch, partsOn } from "../app/states.ts";
import { isPending, later, type Pending } from "../context/later.ts";
import { nextRequestId } from "../context/request-id.ts";
import { partsOf, type ResponseParts } from "../http/response-parts.ts";
import { nodeRuntime, toRequest } from "./node-request.ts";
import { answerError, writeParts } from "./node-response.ts";

/** Anything with a Fetch-API `fetch` — a Portico app. */
export interface FetchApp {
  /** Answers a request. */
  fetch(request: Request, env?: undefined, executionContext?: undefined): Promise<Response> | Response;

  /** The header the app sends the request id in (the adapter's own answers carry it too). */
  readonly requestIdHeader?: string;
  /** Where the adapter reports what it could not send (a Portico app's logger). */
  readonly logger?: { error(message: string, error?: unknown): void };
  /** Releases what the app holds (a Portico app's topic backplane): the server's `close()` calls it. */
  close?(): Promise<void>;
}

/** A Node request listener: `(req, res) => void`, as `http.createServer` and Express take. */
export type NodeHandler = (incoming: IncomingMessage, res: ServerResponse) => void;

/**
 * A Node request listener that answers with the app, to mount Portico in an existing `http.Server`,
 * in Express (`expressApp.use("/api", toNodeHandler(app))`: the app then sees the path below the
 * mount point, as Express gives it) or in Fastify (`reply.hijack()`, then the handler on
 * `request.raw` and `reply.raw`). Websockets need the server's `upgrade` event: use `serve`.
 *
 * @example
 * import { createServer } from "node:http";
 * import { toNodeHandler } from "portico/node";
 * createServer(toNodeHandler(app)).listen(3000);
 */
export function toNodeHandler(app: FetchApp): NodeHandler {
  const answer = nodeAnswer(app);
  return (incoming, res) => answerWith(answer, app, incoming, res, "localhost");
}

/**
 * Answers one Node request with the app's answer (`nodeAnswer`, found once per server, not per request);
 * `listening` is the host to use when the request has no Host.
 */
export function answerWith(
  answer: PartsFetch,
  app: FetchApp,
  incoming: IncomingMessage,
  res: ServerResponse,
  listening: string,
): void {
  let result: ResponseParts | Pending<ResponseParts>;
  try {
    result = answer(toRequest(incoming, res, listening));
  } catch (error) {
    fail(app, res, error);
    return;
  }
  if (!isPending(result)) writeParts(result, res, app);
  // The write is the last continuation of the request's work (context/later.ts).
  else
    later(
      result,
      (parts) => writeParts(parts, res, app),
      (error: unknown) => fail(app, res, error),
    );
}

const answers = new WeakMap<FetchApp, PartsFetch>();

/**
 * The app's answer, as parts, for requests this adapter serves: a Portico app's is told the Node
 * runtime and never builds a `Response`; any other app's `Response` is taken apart.
 */
export function nodeAnswer(app: FetchApp): PartsFetch {
  let answer = answers.get(app);
  if (answer === undefined) {
    answer =
      partsOn(app, nodeRuntime) ??
      ((request) => {
        const response = app.fetch(request);
        return response instanceof Promise ? response.then(partsOf) : partsOf(response);
      });
    answers.set(app, answer);
  }
  return answer;
}

// app.fetch never throws nor rejects for a Portico app; another FetchApp might.
function fail(app: FetchApp, res: ServerResponse, error: unknown): void {
  const id = nextRequestId();
  (app.logger ?? console).error(`[portico] request ${id} failed outside the app`, error);
  answerError(res, 500, app.requestIdHeader ?? "x-request-id", id);
}
