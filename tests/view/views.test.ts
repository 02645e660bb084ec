import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createApp, defineView, isView } from "../../src/mod.ts";

describe("defineView", () => {
  const Item = defineView({
    json: (item: { id: number }) => item,
    text: (item) => `item ${item.id}`,
    html: (item) => `<b>${item.id}</b>`,
    xml: (item) => `<item id="${item.id}"/>`,
    "application/vnd.item+json": (item) => ({ data: item }),
  });
  const app = createApp();
  app.get("/", () => Item({ id: 7 }));
  const get = async (accept?: string) => {
    const res = await app.request("/", accept === undefined ? {} : { headers: { accept } });
    return [res.headers.get("content-type"), await res.text()];
  };

  test("a view is data plus its renderers", () => {
    const view = Item({ id: 1 });
    assert.ok(isView(view));
    assert.deepEqual(view.data, { id: 1 });
    assert.deepEqual(Item.mediaTypes, [
      "application/json",
      "text/plain",
      "text/html",
      "application/xml",
      "application/vnd.item+json",
    ]);
    assert.equal(isView({ data: 1 }), false);
  });

  test("no Accept, */* or no match: the first renderer", async () => {
    assert.deepEqual(await get(), ["application/json", '{"id":7}']);
    assert.deepEqual(await get("*/*"), ["application/json", '{"id":7}']);
    assert.deepEqual(await get("image/webp"), ["application/json", '{"id":7}']);
  });

  test("each renderer has its Content-Type", async () => {
    assert.deepEqual(await get("text/plain"), ["text/plain; charset=utf-8", "item 7"]);
    assert.deepEqual(await get("text/html"), ["text/html; charset=utf-8", "<b>7</b>"]);
    assert.deepEqual(await get("application/xml"), ["application/xml; charset=utf-8", '<item id="7"/>']);
    assert.deepEqual(await get("application/vnd.item+json"), [
      "application/vnd.item+json",
      '{"data":{"id":7}}',
    ]);
  });

  test("q-values and specificity decide", async () => {
    assert.deepEqual((await get("text/html;q=0.4, text/plain;q=0.8"))[1], "item 7");
    assert.deepEqual((await get("text/*, text/html;q=0.1"))[1], "item 7");
    assert.deepEqual((await get("application/json;q=0, */*;q=0.5"))[1], "item 7");
  });

  test("JSON renders bigints as strings instead of failing", async () => {
    const Big = defineView({ json: (n: bigint) => ({ n }) });
    const bigApp = createApp();
    bigApp.get("/", () => Big(9007199254740993n));
    assert.equal(await (await bigApp.request("/")).text(), '{"n":"9007199254740993"}');
  });

  test("unknown formats and empty views are refused", () => {
    assert.throws(() => defineView({ yaml: () => "" }), /Unknown view format "yaml"/);
    assert.throws(() => defineView({}), /at least one renderer/);
  });
});
