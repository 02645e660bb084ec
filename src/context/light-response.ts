import { BODY_METHODS, standIn } from "./stand-in.ts";

/** What a response built by Portico is made of: adapters write these without reading a `Response`. */
export interface ResponseParts {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>> | Headers;
  readonly body: string | Uint8Array | ReadableStream<Uint8Array> | null;
}

/**
 * Set to `true` on a request-like object whose server adapter reads {@link responseParts}: Portico
 * then answers it with a light stand-in instead of building a standard `Response`.
 */
export const lightResponseKey: unique symbol = Symbol.for("portico.light-response");

/** The parts of a light response, or `undefined` for any other response (or one already made real). */
export function responseParts(response: Response): ResponseParts | undefined {
  return response instanceof LightResponse ? response.parts() : undefined;
}

/** Builds the response for parts: a light stand-in when the server reads parts, else a real `Response`. */
export function buildResponse(parts: ResponseParts, light: boolean): Response {
  if (light) return new LightResponse(parts) as unknown as Response;
  return new Response(parts.body as BodyInit | null, {
    status: parts.status,
    headers: parts.headers as HeadersInit,
  });
}

// A stand-in that passes for a Response: its parts are read directly by the adapter; anything else
// builds the real Response once and answers from it.
class LightResponse {
  readonly #parts: ResponseParts;
  #real: Response | undefined = undefined;

  constructor(parts: ResponseParts) {
    this.#parts = parts;
  }

  parts(): ResponseParts | undefined {
    return this.#real === undefined ? this.#parts : undefined;
  }

  real(): Response {
    if (this.#real === undefined) {
      const { body, status, headers } = this.#parts;
      this.#real = new Response(body as BodyInit | null, { status, headers: headers as HeadersInit });
    }
    return this.#real;
  }

  get status(): number {
    return this.#parts.status;
  }

  get ok(): boolean {
    const status = this.#parts.status;
    return status >= 200 && status < 300;
  }
}

standIn<LightResponse>(
  LightResponse.prototype,
  Response.prototype,
  (self) => self.real(),
  ["headers", "body", "bodyUsed", "statusText", "type", "url", "redirected"],
  BODY_METHODS,
);
