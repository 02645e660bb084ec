import assert from "node:assert/strict";
import { defineView } from "../../src/mod.ts";
import type { Client } from "./client.ts";

/** A request id Portico makes: a per-process random prefix (12 base64url characters), `-`, a counter. */
export const REQUEST_ID: RegExp = /^[A-Za-z0-9_-]{12}-[0-9a-z]+$/;
/** A JSON request's headers. */
export const JSON_HEADERS: Record<string, string> = { "content-type": "application/json" };
/** A urlencoded form request's headers. */
export const FORM_HEADERS: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };

/** Echoes data as JSON (default) or text. */
export const Echo = defineView({
  json: (data: Record<string, unknown>) => data,
  text: (data) => JSON.stringify(data),
});

/** A user in JSON, text or HTML. */
export const UserView = defineView({
  json: (u: { id: number; name: string }) => u,
  text: (u) => `${u.id} ${u.name}`,
  html: (u) => `<p>${u.id} ${u.name}</p>`,
});

/** Fetches and checks status and text body. */
export async function expectText(
  client: Client,
  path: string,
  status: number,
  body: string,
  init?: RequestInit,
): Promise<Response> {
  const res = await client.fetch(path, init);
  assert.equal(await res.text(), body, `${init?.method ?? "GET"} ${path} body`);
  assert.equal(res.status, status, `${init?.method ?? "GET"} ${path} status`);
  return res;
}

/** Fetches with `Accept: application/json` and checks status and JSON body. */
export async function expectJson(
  client: Client,
  path: string,
  status: number,
  body: unknown,
  init?: RequestInit,
): Promise<Response> {
  const res = await client.fetch(path, {
    ...init,
    headers: { accept: "application/json", ...init?.headers },
  });
  const text = await res.text();
  assert.equal(res.status, status, `${path} status (body ${text})`);
  assert.deepEqual(JSON.parse(text), body, `${path} body`);
  return res;
}

/** Fetches; resolves to status, text body and the response. */
export async function text(
  client: Client,
  path: string,
  init?: RequestInit,
): Promise<[number, string, Response]> {
  const res = await client.fetch(path, init);
  return [res.status, await res.text(), res];
}

/** Fetches with `Accept: application/json`; resolves to status, parsed body and the response. */
export async function json(
  client: Client,
  path: string,
  init?: RequestInit,
): Promise<[number, unknown, Response]> {
  const res = await client.fetch(path, {
    ...init,
    headers: { accept: "application/json", ...init?.headers },
  });
  const body = await res.text();
  return [res.status, body === "" ? undefined : JSON.parse(body), res];
}
