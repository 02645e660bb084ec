// The documents of examples/api and of an app using every declaration (kitchen-sink.ts), checked by
// five tools nobody here wrote, with their recommended rules: @seriousme/openapi-schema-validator,
// @readme/openapi-parser, @apidevtools/swagger-parser, Redocly and Spectral.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import SwaggerParser from "@apidevtools/swagger-parser";
import { validate as readmeValidate } from "@readme/openapi-parser";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Document, Spectral } from "@stoplight/spectral-core";
import * as Parsers from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import { document as exampleApi } from "../../examples/api/app.ts";
import { document as kitchenSink } from "./kitchen-sink.ts";

// biome-ignore lint/suspicious/noExplicitAny: documents are read as untyped JSON here.
type Json = any;
// spectral-parsers is CommonJS: its named exports arrive on the default export under some loaders.
const JsonParser = (Parsers as Json).Json ?? (Parsers as Json).default.Json;

// Redocly's `security-defined` asks every operation to state its security. Portico states what
// middleware declares (`declaring(…, { security })`: bearer, API keys, cookies); an operation without
// declared credentials has nothing to state, and writing `security: []` for it would claim that none
// are needed, which a check written inside a handler would make false. It is the one rule left, and
// only on operations without declared security.
const EXPLAINED = new Set(["security-defined"]);

for (const [name, document] of [
  ["examples/api", exampleApi],
  ["kitchen sink", kitchenSink],
] as const) {
  describe(`the document of ${name}`, () => {
    test("@seriousme/openapi-schema-validator: valid OpenAPI 3.1", async () => {
      const result = await new Validator().validate(structuredClone(document) as never);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    });

    test("@readme/openapi-parser: valid, no warnings", async () => {
      const result = (await readmeValidate(structuredClone(document) as never)) as Json;
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
      assert.deepEqual(result.warnings ?? [], []);
    });

    test("@apidevtools/swagger-parser: valid, every $ref resolves", async () => {
      const parsed = (await SwaggerParser.validate(structuredClone(document) as never)) as Json;
      assert.equal(parsed.openapi, "3.1.0");
    });

    test("Redocly (recommended): nothing but the explained rule, where it applies", async () => {
      const config = await createConfig({ extends: ["recommended"] });
      const problems = await lintFromString({
        source: JSON.stringify(document),
        absoluteRef: "/openapi.json",
        config,
      });
      const unexplained = problems.filter((problem) => !EXPLAINED.has(problem.ruleId));
      assert.deepEqual(
        unexplained.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`),
        [],
      );
      for (const problem of problems) {
        const pointer = problem.location[0]!.pointer!;
        const [, path, method] = /^#\/paths\/([^/]+)\/(\w+)$/.exec(pointer)!;
        const operation = (document.paths as Json)[path!.replaceAll("~1", "/")][method!];
        assert.equal(operation.security, undefined, `${pointer} declares security, yet ${problem.ruleId}`);
      }
    });

    test("Spectral (oas recommended): no error, no warning", async () => {
      const spectral = new Spectral();
      spectral.setRuleset({ extends: [[oas as Json, "recommended"]] } as Json);
      const results = await spectral.run(
        new Document(JSON.stringify(document, null, 2), JsonParser, "/openapi.json"),
      );
      assert.deepEqual(
        results.map((result) => `${result.code}: ${result.message} at ${result.path.join(".")}`),
        [],
      );
    });
  });
}
