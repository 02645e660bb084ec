import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createApp,
  defineEndpoint,
  defineError,
  defineView,
  HtmlString,
  html,
  unescaped,
} from "../../src/mod.ts";

describe("html``", () => {
  test("escapes every interpolated text, in content and in quoted attributes", () => {
    const hostile = `"><script>alert('x')</script>&`;
    assert.equal(
      html`<a title="${hostile}">${hostile}</a>`.value,
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">' +
        "&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>",
    );
    assert.equal(html`<p title='${"it's"}'>`.value, "<p title='it&#39;s'>");
  });

  test("nested markup, arrays and unescaped() go in as is; nothing for null, undefined and booleans", () => {
    const items = ["<1>", "2"];
    const page = html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>${unescaped("<hr>")}${null}${undefined}${false}${true}${0}`;
    assert.ok(page instanceof HtmlString);
    assert.equal(String(page), "<ul><li>&lt;1&gt;</li><li>2</li></ul><hr>0");
    assert.equal(html`${["<a>", [unescaped("<b>")]]}`.value, "&lt;a&gt;<b>");
    assert.equal(`${html`<i>${"&"}</i>`}`, "<i>&amp;</i>");
  });

  test("objects and numbers are text: escaped, never markup", () => {
    const tricky = { toString: () => "<img src=x onerror=alert(1)>" };
    assert.equal(html`${tricky}|${12.5}|${10n}`.value, "&lt;img src=x onerror=alert(1)&gt;|12.5|10");
  });

  test("a view's html renderer may return html``, served as text/html", async () => {
    const UserView = defineView({ html: (u: { name: string }) => html`<h1>${u.name}</h1>` });
    const app = createApp();
    app.get("/", () => UserView({ name: "<Ann & Bob>" }));
    const res = await app.request("/");
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(await res.text(), "<h1>&lt;Ann &amp; Bob&gt;</h1>");
  });

  test("the HTML error page escapes the message and keeps its markup", async () => {
    const Teapot = defineError("Teapot", 418, { message: `<script>alert("x")</script>` });
    const app = createApp();
    app.get(
      "/",
      defineEndpoint({
        errors: { Teapot },
        call(ep) {
          throw new ep.errors.Teapot();
        },
      }),
    );
    const res = await app.request("/", { headers: { accept: "text/html" } });
    const body = await res.text();
    assert.equal(res.status, 418);
    assert.match(body, /^<!doctype html><html lang="en">/);
    assert.match(body, /<h1>418 Teapot<\/h1><p>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;<\/p>/);
    assert.match(body, /<style>body\{font:16px/);
    assert.match(body, new RegExp(`<code>${res.headers.get("x-request-id")}</code>`));
  });
});
