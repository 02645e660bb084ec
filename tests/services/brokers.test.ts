// Topics across instances on different runtimes (Node 24, Bun, Deno) over a real redis-server and a
// real nats-server, started here: every message delivered once to every subscriber on every instance, text and binary kept apart,
// and a broker restart survived (reconnect, resubscribe), with the loss during the outage measured.
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { topicEmitter } from "../../src/pubsub/emitter.ts";
import { natsPubSub } from "../../src/pubsub/nats.ts";
import { redisPubSub } from "../../src/pubsub/redis.ts";
import { type Member, openMember } from "../conformance/client.ts";
import { root, type StartedProcess, startProcess } from "../runtimes/processes.ts";
import { nodeBin } from "../runtimes/targets.ts";
import { BROKERS, freePort, stopBroker, until } from "./brokers.ts";

const join_ = (origin: string, room: string): Promise<Member> => openMember(`${origin}/room/${room}`);

const bun = join(root, ".runtimes", "node_modules", ".bin", "bun");
const deno = join(root, "node_modules", ".bin", "deno");
const entry = "tests/services/instance.ts";

for (const broker of BROKERS)
  describe(`topics over ${broker.name}, across Node 24, Bun and Deno`, () => {
    let port: number;
    let server: ChildProcess;
    const instances: Record<string, StartedProcess> = {};
    before(async () => {
      port = await freePort();
      server = await broker.start(port);
      const env = broker.env(port);
      [instances.node, instances.bun, instances.deno] = await Promise.all([
        startProcess(nodeBin(24), [entry], env),
        startProcess(bun, ["run", entry], env),
        startProcess(deno, ["run", "--allow-net", "--allow-env", "--allow-read", entry], env),
      ]);
    });
    after(async () => {
      await Promise.all(Object.values(instances).map((instance) => instance.stop()));
      if (server) await stopBroker(server);
    });

    test("each message reaches every other member once, on every instance; text and binary kept apart", async () => {
      const room = `r${Date.now()}`;
      const members = {
        node: await join_(instances.node!.origin, room),
        bun: await join_(instances.bun!.origin, room),
        deno: await join_(instances.deno!.origin, room),
        node2: await join_(instances.node!.origin, room),
      };
      // The backplane subscription is made when the first member joins: wait until a probe crosses.
      await until(async () => {
        members.deno.ws.send("probe");
        await new Promise((resolve) => setTimeout(resolve, 100));
        return members.node.got.includes("probe") && members.bun.got.includes("probe");
      }, "the instances to be subscribed");
      for (const m of Object.values(members)) m.got.length = 0;
      for (let i = 0; i < 20; i++) members.node.ws.send(`n${i}`);
      for (let i = 0; i < 20; i++) members.bun.ws.send(`b${i}`);
      await fetch(`${instances.deno!.origin}/publish/${room}`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: new Uint8Array([0, 255, 10]),
      });
      const everyone = [
        ...Array.from({ length: 20 }, (_, i) => `n${i}`),
        ...Array.from({ length: 20 }, (_, i) => `b${i}`),
      ];
      await until(
        () =>
          Object.values(members).every(
            (m) => m.got.length >= 41 - (m === members.node || m === members.bun ? 20 : 0),
          ),
        "all deliveries",
      );
      // Then an end marker from each sender: a duplicate would travel the same way as its original,
      // before the marker (order per sender is kept), so once every marker is in, every copy is.
      members.node.ws.send("n-end");
      members.bun.ws.send("b-end");
      await fetch(`${instances.deno!.origin}/publish/${room}`, { method: "POST", body: "d-end" });
      const heard = (m: Member, markers: string[]) => markers.every((marker) => m.got.includes(marker));
      await until(
        () =>
          heard(members.deno, ["n-end", "b-end", "d-end"]) &&
          heard(members.node2, ["n-end", "b-end", "d-end"]) &&
          heard(members.node, ["b-end", "d-end"]) &&
          heard(members.bun, ["n-end", "d-end"]),
        "every sender's end marker",
      );
      const sorted = (m: Member) =>
        m.got.filter((x): x is string => typeof x === "string" && !x.endsWith("-end")).sort();
      assert.deepEqual(sorted(members.deno), [...everyone].sort(), "deno got each once");
      assert.deepEqual(sorted(members.node2), [...everyone].sort(), "the sender's neighbour got each once");
      assert.deepEqual(
        sorted(members.node),
        everyone.filter((x) => x.startsWith("b")).sort(),
        "no echo to the sender",
      );
      assert.deepEqual(sorted(members.bun), everyone.filter((x) => x.startsWith("n")).sort());
      for (const m of Object.values(members))
        assert.deepEqual(
          m.got.filter((x) => typeof x !== "string"),
          [[0, 255, 10]],
        );
      for (const m of Object.values(members)) m.ws.close();
    });

    test("app.subscribe: an event stream on each instance hears a room's messages from every other", async () => {
      const room = `s${Date.now()}`;
      const streams = await Promise.all(
        Object.entries(instances).map(async ([name, instance]) => {
          const aborter = new AbortController();
          const response = await fetch(`${instance.origin}/events/${room}`, { signal: aborter.signal });
          const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
          const seen = { name, text: "", aborter };
          void (async () => {
            for (;;) {
              const { done, value } = await reader.read().catch(() => ({ done: true, value: "" }));
              if (done) return;
              seen.text += value;
            }
          })();
          return seen;
        }),
      );
      await until(() => streams.every((s) => s.text.includes(": ready")), "every stream to be open");
      // The backplane subscription is made by the first listener: publish until every stream hears.
      await until(async () => {
        await fetch(`${instances.deno!.origin}/publish/${room}`, { method: "POST", body: "probe" });
        return streams.every((s) => s.text.includes("data: probe"));
      }, "the streams to be subscribed");
      for (const [name, instance] of Object.entries(instances)) {
        await fetch(`${instance.origin}/publish/${room}`, { method: "POST", body: `from ${name}` });
      }
      await until(
        () =>
          streams.every((s) => Object.keys(instances).every((name) => s.text.includes(`data: from ${name}`))),
        "every stream to hear every instance",
      );
      for (const s of streams) s.aborter.abort();
    });

    test("an emitter outside any app (a job) reaches the room's members on every instance, text and bytes", async () => {
      const room = `emit${Date.now()}`;
      const members = await Promise.all(Object.values(instances).map((i) => join_(i.origin, room)));
      const url = Object.values(broker.env(port))[0]!;
      const emitter = topicEmitter(
        broker.name === "Redis" ? redisPubSub({ url }) : natsPubSub({ servers: url }),
        { onError: () => {} },
      );
      // The first publish waits for the connection; then until every instance is subscribed.
      await until(async () => {
        assert.equal(await emitter.publish(`room:${room}`, "probe"), true);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return members.every((m) => m.got.includes("probe"));
      }, "every instance to hear the emitter");
      assert.equal(await emitter.publish(`room:${room}`, "from the job"), true);
      assert.equal(await emitter.publish(`room:${room}`, new Uint8Array([1, 2])), true);
      await until(
        () => members.every((m) => m.got.includes("from the job") && m.got.some((x) => Array.isArray(x))),
        "the job's messages",
      );
      for (const m of members)
        assert.deepEqual(
          m.got.filter((x) => Array.isArray(x)),
          [[1, 2]],
        );
      await assert.rejects(emitter.publish("", "x"), /A topic is a string/);
      await emitter.close();
      for (const m of members) m.ws.close();
    });

    test("a user's sockets on every instance join, leave and are disconnected by a command given on one", async () => {
      const room = `ctl${Date.now()}`;
      const user = `u${Date.now()}`;
      const sockets = await Promise.all(
        Object.values(instances).map((i) => openMember(`${i.origin}/user/${user}`)),
      );
      const other = await openMember(`${instances.bun!.origin}/user/someone-else`);
      const closes = sockets.map(
        (s) =>
          new Promise<string>((resolve) =>
            s.ws.on("close", (code: number, why: Buffer) => resolve(`${code} ${why}`)),
          ),
      );
      const control = (op: string, body = "") =>
        fetch(`${instances.deno!.origin}/control/${user}/${op}`, { method: "POST", body });
      // Joined from Deno: every instance's socket of the user is in the room, the other user's is not.
      await until(async () => {
        await control("join", room);
        await fetch(`${instances.node!.origin}/publish/${room}`, { method: "POST", body: "probe" });
        await new Promise((resolve) => setTimeout(resolve, 100));
        return sockets.every((s) => s.got.includes("probe"));
      }, "the user's sockets to be joined everywhere");
      assert.deepEqual(other.got, []);
      await control("leave", room);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const s of sockets) s.got.length = 0;
      await fetch(`${instances.node!.origin}/publish/${room}`, { method: "POST", body: "after leaving" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const s of sockets) assert.deepEqual(s.got, [], "left everywhere");
      await control("kick");
      assert.deepEqual(await Promise.all(closes), ["4001 Signed out", "4001 Signed out", "4001 Signed out"]);
      assert.equal(other.ws.readyState, 1, "the other user stays open");
      other.ws.close();
    });

    test("a broker restart: local delivery goes on, the outage's publishes are dropped and counted, then it resumes", async () => {
      const room = `restart${Date.now()}`;
      const a = await join_(instances.node!.origin, room);
      const a2 = await join_(instances.node!.origin, room);
      const b = await join_(instances.bun!.origin, room);
      await until(async () => {
        a.ws.send("probe");
        await new Promise((resolve) => setTimeout(resolve, 100));
        return b.got.includes("probe");
      }, "the first subscription");
      const stats = async () =>
        (await (await fetch(`${instances.node!.origin}/stats`)).json()) as {
          dropped: number;
          brokerErrors: number;
        };
      const droppedBefore = (await stats()).dropped;
      const errorsBefore = (await stats()).brokerErrors;
      await stopBroker(server);
      await until(
        async () => (await stats()).brokerErrors > errorsBefore,
        "the driver to hear of the outage",
      );
      for (let i = 0; i < 10; i++) a.ws.send(`outage${i}`);
      await until(
        () => a2.got.filter((x) => String(x).startsWith("outage")).length === 10,
        "local delivery during the outage",
      );
      const lost = (await stats()).dropped - droppedBefore;
      const crossed = b.got.filter((x) => String(x).startsWith("outage")).length;
      console.log(
        `# ${broker.name} outage: 10 published on Node, ${crossed} reached Bun, ${lost} counted as dropped`,
      );
      assert.equal(crossed + lost, 10, "every message either crossed or was counted as dropped");
      assert.ok((await stats()).brokerErrors > 0, "the driver's onError heard of the outage");
      server = await broker.start(port);
      await until(
        async () => {
          a.ws.send("after");
          await new Promise((resolve) => setTimeout(resolve, 200));
          return b.got.includes("after");
        },
        "delivery after the broker came back",
        20_000,
      );
      b.ws.send("back the other way");
      await until(() => a.got.includes("back the other way"), "the reverse direction after the restart");
      for (const m of [a, a2, b]) m.ws.close();
    });
  });

describe("examples/chat in two-instance mode: Node and Bun sharing Redis", () => {
  test("a member on each instance hears the other, and the head count is the room's", async () => {
    const port = await freePort();
    const redis = await BROKERS[0]!.start(port);
    const env = { REDIS_URL: `redis://127.0.0.1:${port}`, PORT: "0" };
    const [node, bunChat] = await Promise.all([
      startProcess(nodeBin(24), ["examples/chat/node.ts"], env),
      startProcess(bun, ["run", "examples/chat/bun.ts"], env),
    ]);
    try {
      const listen = (origin: string, name: string) => openMember(`${origin}/chat/lobby?name=${name}`, false);
      const ada = await listen(node.origin, "ada");
      // Ada has joined (her onOpen ran to its end) before bob comes: two members joining at the same
      // moment on two instances may each count only themselves, as presence is eventually consistent.
      await until(() => ada.got.includes("* ada joined (1 here)"), "ada's own join notice");
      const bob = await listen(bunChat.origin, "bob");
      await until(async () => {
        bob.ws.send("ping");
        await new Promise((resolve) => setTimeout(resolve, 100));
        return ada.got.includes("bob: ping");
      }, "bob's messages to reach ada across instances");
      // The room's presence spans both instances: bob, on Bun, is the second one here.
      assert.ok(ada.got.includes("* ada joined (1 here)"), ada.got.join("\n"));
      assert.ok(ada.got.includes("* bob joined (2 here)"), ada.got.join("\n"));
      ada.ws.send("hello bob");
      await until(() => bob.got.includes("ada: hello bob"), "ada's message to reach bob");
      bob.ws.close();
      await until(() => ada.got.includes("* bob left"), "the leave notice across instances");
      ada.ws.close();
    } finally {
      await Promise.all([node.stop(), bunChat.stop()]);
      await stopBroker(redis);
    }
  });
});
