import { type } from "arktype";
import { z } from "zod";
import { defineEndpoint } from "../../../src/mod.ts";
import { expectJson, expectText } from "../helpers.ts";
import type { Topic } from "../suite.ts";

const Mixed = defineEndpoint({
  params: {
    path: { id: z.number().int() },
    query: { tags: type("number[] | undefined"), flag: z.boolean() },
  },
  call: (ep) =>
    Response.json({ id: ep.params.path.id, tags: ep.params.query.tags, flag: ep.params.query.flag }),
});

/** Standard Schema entries (zod, arktype) cast and refused as valibot's are, on every runtime. */
export const validators: Topic = {
  name: "Standard Schema params: zod and arktype, cast from their JSON Schema, Portico's messages",
  routes(app) {
    app.get("/ss/:id", Mixed);
  },
  cases: [
    {
      name: "zod and arktype entries: strings cast to integers, arrays and booleans; refusals in Portico's words",
      async run(c) {
        await expectJson(c, "/ss/7?tags=1&tags=2.5&flag=true", 200, { id: 7, tags: [1, 2.5], flag: true });
        await expectText(
          c,
          "/ss/x?flag=true",
          400,
          '400 Path Params Error — Path parameter "id" cannot be cast from "x" to Integer',
        );
        await expectText(c, "/ss/7", 400, '400 Query Params Error — Query parameter "flag" is missing');
      },
    },
  ],
};
