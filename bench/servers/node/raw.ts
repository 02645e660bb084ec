// The limit: node:http with hand-written routing, parsing and validation.
import { createServer } from "node:http";
import { int32, parseSearch } from "../raw-fetch.ts";

const TEXT = { "content-type": "text/plain; charset=utf-8" };
const JSON_TYPE = { "content-type": "application/json" };

function send(res, status, headers, body) {
  headers["content-length"] = Buffer.byteLength(body);
  res.writeHead(status, headers);
  res.end(body);
}

const server = createServer((req, res) => {
  const url = req.url;
  const q = url.indexOf("?");
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method === "GET") {
    if (path === "/") return send(res, 200, { ...TEXT }, "Hello World");
    if (path.startsWith("/users/")) {
      const id = int32(path.slice(7));
      if (id === undefined) return send(res, 400, { ...TEXT }, "bad id");
      return send(res, 200, { ...JSON_TYPE }, JSON.stringify({ id, name: `user${id}` }));
    }
    if (path === "/search") {
      const search = parseSearch(q < 0 ? "" : url.slice(q + 1));
      if (search === null) return send(res, 400, { ...TEXT }, "bad query");
      return send(res, 200, { ...JSON_TYPE }, JSON.stringify(search));
    }
  } else if (req.method === "POST" && path === "/users") {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let body: { user?: { name?: unknown; email?: unknown } } | null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(res, 400, { ...TEXT }, "bad json");
      }
      const user = body?.user;
      if (typeof user?.name !== "string" || typeof user?.email !== "string")
        return send(res, 400, { ...TEXT }, "bad user");
      send(res, 201, { ...JSON_TYPE }, JSON.stringify({ name: user.name, email: user.email }));
    });
    return;
  }
  send(res, 404, { ...TEXT }, "not found");
});

server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () =>
  console.log(`READY http://127.0.0.1:${server.address().port}`),
);
