// Type tests of the response transforms: the function form gets and returns a `Response`, the parts form
// gets and returns `ResponseParts` (sync or async); mixing them up is a type error; `whenHandedOver` gets
// the parts.
import { createApp, type PartsTransform, type ResponseParts, type ResponseTransform } from "../../src/mod.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const app = createApp();
app.use((ctx, next) => {
  ctx.response.transform((response) => {
    type _response = Expect<Equal<typeof response, Response>>;
    return response;
  });
  ctx.response.transform({
    parts(parts, c) {
      type _parts = Expect<Equal<typeof parts, ResponseParts>>;
      type _body = Expect<
        Equal<ResponseParts["body"], string | Uint8Array | ReadableStream<Uint8Array> | Blob | null>
      >;
      parts.headers.set("x-id", c.request.id);
      parts.status = 203;
      return parts;
    },
  });
  ctx.response.transform({ parts: async (parts) => ({ ...parts, body: "replaced" }) });
  // @ts-expect-error the parts form returns parts
  ctx.response.transform({ parts: () => "text" });
  // @ts-expect-error a parts body is text, bytes, a stream, a Blob or null
  ctx.response.transform({ parts: (parts) => ({ ...parts, body: { json: true } }) });
  // @ts-expect-error the function form returns a Response, not parts
  ctx.response.transform((response) => ({ status: response.status, headers: response.headers, body: null }));
  ctx.whenHandedOver((sent) => {
    type _sent = Expect<Equal<typeof sent, ResponseParts>>;
  });
  return next();
});

// The exported names of each form.
const both: [ResponseTransform, PartsTransform] = [(response) => response, { parts: (parts) => parts }];
void both;
