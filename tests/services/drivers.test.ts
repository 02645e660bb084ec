// The backplane drivers against a real broker, below the hub: what the hub asks of them.
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { PubSubDriver } from "../../src/mod.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";
import { BROKERS, freePort, NATS, REDIS, startBroker, stopBroker, until } from "./brokers.ts";

const nats = BROKERS.find((broker) => broker.name === "NATS")!;
let broker: ChildProcess;
let url: string;
before(async () => {
  const port = await freePort();
  broker = await nats.start(port);
  url = `nats://127.0.0.1:${port}`;
});
after(() => stopBroker(broker));

test("NATS: an unsubscribe made before the connection is up wins over the subscribe waiting for it", async () => {
  const received: string[] = [];
  const listener = natsPubSub({ servers: url });
  listener.start(
    (topic) => received.push(topic),
    (error) => assert.fail(String(error)),
  );
  // Both before the connection is made: 0.2 subscribed "gone" once connected, and never left it.
  const joining = listener.subscribe("gone");
  listener.unsubscribe("gone");
  await joining;
  await listener.subscribe("kept");
  const sender = natsPubSub({ servers: url });
  sender.start(
    () => {},
    (error) => assert.fail(String(error)),
  );
  const frame = new Uint8Array([1]);
  // One connection's messages arrive in order: once "kept" is in, "gone" would have been too.
  await until(async () => {
    await sender.publish("gone", frame);
    await sender.publish("kept", frame);
    return received.includes("kept");
  }, "the message on the kept topic");
  assert.deepEqual(new Set(received), new Set(["kept"]));
  await Promise.all([listener.close(), sender.close()]);
});

/** A redis-server on loopback without persistence, with more arguments (its port among them). */
const redisWith = (args: string[]): Promise<ChildProcess> =>
  startBroker(
    REDIS,
    ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...args],
    "Ready to accept connections",
  );

// A broker that asks for credentials: the drivers pass the clients' own options through.
async function authenticated(
  name: "Redis" | "NATS",
): Promise<{ server: ChildProcess; good: () => PubSubDriver; bad: () => PubSubDriver }> {
  const port = await freePort();
  if (name === "Redis") {
    const server = await redisWith(["--port", String(port), "--requirepass", "s3cret"]);
    return {
      server,
      good: () => redisPubSub({ url: `redis://127.0.0.1:${port}`, client: { password: "s3cret" } }),
      bad: () =>
        redisPubSub({ url: `redis://127.0.0.1:${port}`, client: { password: "wrong" }, maxBackoff: 100 }),
    };
  }
  const server = await startBroker(
    NATS,
    ["-a", "127.0.0.1", "-p", String(port), "--user", "app", "--pass", "s3cret"],
    "Server is ready",
  );
  return {
    server,
    good: () =>
      natsPubSub({ servers: `nats://127.0.0.1:${port}`, connection: { user: "app", pass: "s3cret" } }),
    bad: () =>
      natsPubSub({ servers: `nats://127.0.0.1:${port}`, connection: { user: "app", pass: "wrong" } }),
  };
}

// A broker on TLS only, its certificate signed by a CA made here: the clients' TLS options pass through.
async function encrypted(
  name: "Redis" | "NATS",
): Promise<{ server: ChildProcess; good: () => PubSubDriver; bad: () => PubSubDriver }> {
  const dir = mkdtempSync(join(tmpdir(), "portico-tls-"));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "ignore" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    file("ca.key"),
    "-out",
    file("ca.pem"),
    "-days",
    "1",
    "-subj",
    "/CN=portico-test-ca",
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    file("server.key"),
    "-out",
    file("server.csr"),
    "-subj",
    "/CN=127.0.0.1",
  );
  writeFileSync(file("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  openssl(
    "x509",
    "-req",
    "-in",
    file("server.csr"),
    "-CA",
    file("ca.pem"),
    "-CAkey",
    file("ca.key"),
    "-CAcreateserial",
    "-out",
    file("server.pem"),
    "-days",
    "1",
    "-extfile",
    file("san.ext"),
  );
  const ca = readFileSync(file("ca.pem"), "utf8");
  const port = await freePort();
  if (name === "Redis") {
    const server = await redisWith([
      "--port",
      "0",
      "--tls-port",
      String(port),
      "--tls-cert-file",
      file("server.pem"),
      "--tls-key-file",
      file("server.key"),
      "--tls-ca-cert-file",
      file("ca.pem"),
      "--tls-auth-clients",
      "no",
    ]);
    const url = `rediss://127.0.0.1:${port}`;
    return {
      server,
      good: () => redisPubSub({ url, client: { socket: { tls: true, ca } } }),
      // Without the CA, the server's certificate is not trusted.
      bad: () => redisPubSub({ url, maxBackoff: 100 }),
    };
  }
  const server = await startBroker(
    NATS,
    [
      "-a",
      "127.0.0.1",
      "-p",
      String(port),
      "--tls",
      "--tlscert",
      file("server.pem"),
      "--tlskey",
      file("server.key"),
    ],
    "Server is ready",
  );
  const servers = `tls://127.0.0.1:${port}`;
  return {
    server,
    good: () => natsPubSub({ servers, connection: { tls: { ca } } }),
    bad: () => natsPubSub({ servers, connection: { tls: {} } }),
  };
}

for (const [name, secured, what] of [
  ["Redis", authenticated, "credentials"],
  ["NATS", authenticated, "credentials"],
  ["Redis", encrypted, "TLS"],
  ["NATS", encrypted, "TLS"],
] as const)
  test(`${name}: ${what} given as client options are used; a client without is reported and nothing crosses`, async () => {
    const broker = await secured(name);
    try {
      const received: string[] = [];
      const listener = broker.good();
      listener.start(
        (_topic, frame) => received.push(new TextDecoder().decode(frame)),
        (error) => assert.fail(String(error)),
      );
      await listener.subscribe("t");
      const sender = broker.good();
      sender.start(
        () => {},
        (error) => assert.fail(String(error)),
      );
      await until(async () => {
        await sender.publish("t", new TextEncoder().encode("hello"));
        return received.includes("hello");
      }, "a message through the authenticated broker");
      const errors: unknown[] = [];
      const intruder = broker.bad();
      intruder.start(
        () => {},
        (error) => errors.push(error),
      );
      await until(() => errors.length > 0, `the wrong ${what} to be reported`);
      assert.equal(await intruder.publish("t", new TextEncoder().encode("intruder")), false);
      await Promise.all([listener.close(), sender.close(), intruder.close()]);
      assert.ok(!received.includes("intruder"));
    } finally {
      await stopBroker(broker.server);
    }
  });
