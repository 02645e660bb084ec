// Peak memory of a Node server taking one 100 MiB multipart upload: Portico streaming the file to the
// handler, Portico buffering it as a File, and request.formData() (what Hono, h3 and Elysia use).
// A fresh server per way; VmHWM (peak RSS) before and after. Writes UPLOAD.md.
//   npx tsx bench/upload.ts
import { bundleNodeServer, peakRssMiB, startServer } from "./measure.ts";
import { writePage } from "./report.ts";

const SIZE = 100 * 1024 * 1024;
const CHUNK = 64 * 1024;
const B = "benchBoundary";
const bundle = await bundleNodeServer("node/upload.ts", "upload-node");

function body(): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const head = encoder.encode(
    `--${B}\r\nContent-Disposition: form-data; name="note"\r\n\r\nbig\r\n--${B}\r\nContent-Disposition: form-data; name="data"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${B}--\r\n`);
  const chunk = new Uint8Array(CHUNK).fill(120);
  let sent = -1;
  return new ReadableStream({
    pull(controller) {
      if (sent === -1) {
        controller.enqueue(head);
        sent = 0;
      } else if (sent < SIZE) {
        controller.enqueue(chunk);
        sent += CHUNK;
      } else {
        controller.enqueue(tail);
        controller.close();
      }
    },
  });
}

const rows: string[] = [];
let port = 4500;
for (const [way, path] of [
  ["Portico, t.file({ stream: true })", "/stream"],
  ["Portico, t.file() (buffered File)", "/buffered"],
  ["request.formData() (Hono, h3, Elysia)", "/formdata"],
] as const) {
  const server = await startServer(
    { runtime: "node", name: way, command: [process.execPath, bundle] },
    port++,
  );
  try {
    const before = peakRssMiB(server.pid);
    const started = performance.now();
    const res = await fetch(server.origin + path, {
      method: "POST",
      headers: { "content-type": `multipart/form-data; boundary=${B}` },
      body: body(),
      duplex: "half",
    } as RequestInit);
    const answer = (await res.json()) as { bytes: number };
    const seconds = (performance.now() - started) / 1000;
    if (answer.bytes !== SIZE) throw new Error(`${way}: got ${answer.bytes} bytes`);
    const after = peakRssMiB(server.pid);
    rows.push(
      `| ${way} | ${before.toFixed(0)} | ${after.toFixed(0)} | ${(after - before).toFixed(0)} | ${(SIZE / 1024 / 1024 / seconds).toFixed(0)} |`,
    );
    console.log(rows[rows.length - 1]);
  } finally {
    await server.stop();
  }
}
writePage(
  "UPLOAD.md",
  "Peak memory taking a 100 MiB multipart upload (Node 20, compiled)",
  "npx tsx bench/upload.ts",
  "; one upload per fresh server, streamed by the client in 64 KiB chunks.",
  [
    "",
    "| way | peak RSS before, MiB | peak RSS after, MiB | growth, MiB | MiB/s |",
    "|---|---:|---:|---:|---:|",
    ...rows,
  ],
);
