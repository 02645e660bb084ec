// The RealWorld API and clients that do not behave: a login whose body comes one byte per chunk, a
// registration that leaves halfway through its body, and one that stalls — each answered or dropped
// without harm, the server still answering the next request.
import assert from "node:assert/strict";
import { connect } from "node:net";
import { oneByteChunks, rawExchange } from "../../conformance/raw.ts";

/** Runs against the server at `origin`, logging in as a user the scenario registered. */
export async function rudeClients(origin: string, user: { email: string; password: string }): Promise<void> {
  const body = Buffer.from(JSON.stringify({ user: { email: user.email, password: user.password } }));
  const answer = await rawExchange(
    origin,
    oneByteChunks("/api/users/login", "application/json", body),
    15_000,
  );
  assert.equal(answer.kind, "response", "a body in one-byte chunks is answered");
  if (answer.kind === "response") {
    assert.equal(answer.status, 200);
    assert.match(answer.body, /"token":"[\w-]+\.[\w-]+\.[\w-]+"/);
  }
  const { hostname, port } = new URL(origin);
  // Leaves after 10 of the 1,000 bytes it announced; another stalls after its headers.
  const leaving = connect(Number(port), hostname);
  await new Promise<void>((resolve) => leaving.once("connect", resolve));
  leaving.write(
    'POST /api/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"user":{',
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  leaving.destroy();
  const stalling = connect(Number(port), hostname);
  await new Promise<void>((resolve) => stalling.once("connect", resolve));
  stalling.write(
    "POST /api/users HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n",
  );
  try {
    const tags = await fetch(`${origin}/api/tags`);
    assert.equal(tags.status, 200, "the server answers others meanwhile");
    await tags.arrayBuffer();
  } finally {
    stalling.destroy();
  }
  const after = await fetch(`${origin}/api/tags`);
  assert.equal(after.status, 200, "and after they are gone");
  await after.arrayBuffer();
}
