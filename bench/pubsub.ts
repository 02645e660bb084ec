// Topics across instances: two Portico instances on Node (separate processes) sharing a real Redis or
// NATS; a client on each; cross-instance delivery latency (p50/p99) and messages per second, with 1,
// 100 and 10,000 topics subscribed. Writes PUBSUB.md. (Memory per idle websocket: bench/idle-sockets.ts.)
//   npx tsx bench/pubsub.ts

import { startProcess } from "../tests/runtimes/processes.ts";
import { BROKERS, freePort, stopBroker } from "../tests/services/brokers.ts";
import { openReady } from "./measure.ts";
import { writePage } from "./report.ts";

const entry = "bench/servers/pubsub-instance.ts";

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

const rows: string[] = [];
for (const broker of BROKERS) {
  const port = await freePort();
  const server = await broker.start(port);
  const env = broker.env(port);
  const [a, b] = await Promise.all([
    startProcess(process.execPath, ["--import", "tsx", entry], env),
    startProcess(process.execPath, ["--import", "tsx", entry], env),
  ]);
  try {
    for (const topics of [1, 100, 10_000]) {
      // One socket per instance subscribes to every topic (the instance then holds `topics` broker subscriptions).
      const ws = (origin: string) => `${origin.replace("http", "ws")}/bench?topics=${topics}`;
      const sender = await openReady(ws(a.origin));
      const receiver = await openReady(ws(b.origin));
      await new Promise((resolve) => setTimeout(resolve, topics > 1000 ? 3000 : 500));
      // Latency: one message at a time, each to a random topic, timed from send to arrival.
      const latencies: number[] = [];
      for (let i = 0; i < 500; i++) {
        const topic = `t${i % topics}`;
        const started = performance.now();
        const arrived = new Promise<void>((resolve) => receiver.once("message", () => resolve()));
        sender.send(`${topic} ${i}`);
        await arrived;
        latencies.push(performance.now() - started);
      }
      // Throughput: 20,000 messages as fast as the sender goes; time until the last arrives.
      const total = 20_000;
      let got = 0;
      const done = new Promise<void>((resolve) =>
        receiver.on("message", () => {
          if (++got === total) resolve();
        }),
      );
      const started = performance.now();
      for (let i = 0; i < total; i++) sender.send(`t${i % topics} ${i}`);
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
      const seconds = (performance.now() - started) / 1000;
      rows.push(
        `| ${broker.name} | ${topics} | ${quantile(latencies, 0.5).toFixed(2)} | ${quantile(latencies, 0.99).toFixed(2)} | ${Math.round(got / seconds)} | ${got === total ? "" : `${total - got} not arrived in 30 s`} |`,
      );
      console.log(rows[rows.length - 1]);
      sender.close();
      receiver.removeAllListeners("message");
      receiver.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
    await stopBroker(server);
  }
}

writePage(
  "PUBSUB.md",
  "Topics across instances",
  "npx tsx bench/pubsub.ts",
  ". Two Portico instances (Node 20, separate processes) sharing the broker, one socket on each subscribed to every topic; messages sent from A's socket to a topic, received on B's.",
  ["", "| broker | topics | p50 ms | p99 ms | messages/s | |", "|---|---:|---:|---:|---:|---|", ...rows],
);
