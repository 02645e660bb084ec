import type { Topic } from "./suite.ts";
import { api } from "./topics/api.ts";
import { batteries } from "./topics/batteries.ts";
import { blocks } from "./topics/blocks.ts";
import { channels } from "./topics/channels.ts";
import { edges } from "./topics/edges.ts";
import { errors } from "./topics/errors.ts";
import { hostile } from "./topics/hostile.ts";
import { matrix } from "./topics/matrix.ts";
import { methods } from "./topics/methods.ts";
import { middleware } from "./topics/middleware.ts";
import { multipart } from "./topics/multipart.ts";
import { namespaces } from "./topics/namespaces.ts";
import { patterns } from "./topics/patterns.ts";
import { pubsub } from "./topics/pubsub.ts";
import { recovery } from "./topics/recovery.ts";
import { requests } from "./topics/requests.ts";
import { seams } from "./topics/seams.ts";
import { telemetry } from "./topics/telemetry.ts";
import { tokens } from "./topics/tokens.ts";
import { validators } from "./topics/validators.ts";
import { websockets } from "./topics/websockets.ts";

/** The conformance suite, topic by topic. */
export const TOPICS: readonly Topic[] = [
  blocks,
  patterns,
  methods,
  requests,
  errors,
  middleware,
  namespaces,
  api,
  websockets,
  channels,
  tokens,
  telemetry,
  edges,
  hostile,
  batteries,
  multipart,
  pubsub,
  recovery,
  validators,
  seams,
  matrix,
];
