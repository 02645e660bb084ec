// A browser cannot set `Authorization` on a websocket: Chromium's own `WebSocket` sends its JWT as the
// subprotocols `bearer` and `bearer.<jwt>`, which `jwt({ websocketToken: "protocol" })` reads on the
// upgrade. The socket opens with `bearer` answered (Chromium fails a handshake that answers none of what
// it offered), the channel reads the verified claims, a forged token never opens, and the request log
// never holds the token.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as v from "valibot";
import { jwt, signJwt } from "../../src/middleware/jwt.ts";
import { type LogEntry, logger } from "../../src/middleware/mod.ts";
import { createApp, defineChannel } from "../../src/mod.ts";
import { servedInChromium } from "./chromium.ts";

const SECRET = "browser-socket-secret-of-32-bytes-at-least";
const auth = jwt({
  secret: SECRET,
  algorithms: ["HS256"],
  websocketToken: "protocol",
  claims: v.object({ sub: v.string() }),
});
const Whoami = defineChannel({ onOpen: (ch) => ch.send(`hello ${auth.claims(ch.context).sub}`) });
const logged: LogEntry[] = [];
const app = createApp();
app.use(logger({ sink: (entry) => logged.push(entry) }));
app.get(
  "/",
  () => new Response("<!doctype html><title>page</title>", { headers: { "content-type": "text/html" } }),
);
app.on("/api", (r) => r.use(auth).ws("/whoami", Whoami));

const chromium = servedInChromium(app);

// Opens the socket from the page, as an app's script would; resolves with what happened first.
async function fromPage(token: string): Promise<{ opened: boolean; protocol: string; first: string }> {
  const page = await chromium.browser.newPage();
  try {
    await page.goto(chromium.server.url.href);
    return await page.evaluate(
      (token) =>
        new Promise<{ opened: boolean; protocol: string; first: string }>((resolve) => {
          const socket = new WebSocket(`${location.origin.replace("http", "ws")}/api/whoami`, [
            "bearer",
            `bearer.${token}`,
          ]);
          socket.onmessage = (event) =>
            resolve({ opened: true, protocol: socket.protocol, first: event.data });
          socket.onclose = () => resolve({ opened: false, protocol: socket.protocol, first: "" });
        }),
      token,
    );
  } finally {
    await page.close();
  }
}

test("Chromium's WebSocket carries the JWT as subprotocols: opened, `bearer` answered, claims read; a forged one never opens; the log never holds it", async () => {
  const token = await signJwt({ sub: "ada" }, { secret: SECRET, expiresIn: 60 });
  assert.deepEqual(await fromPage(token), { opened: true, protocol: "bearer", first: "hello ada" });
  const forged = await signJwt({ sub: "ada" }, { secret: `${SECRET}!`, expiresIn: 60 });
  assert.deepEqual(await fromPage(forged), { opened: false, protocol: "", first: "" });
  const upgrades = logged.filter((entry) => entry.path === "/api/whoami");
  assert.deepEqual(
    upgrades.map((entry) => entry.status),
    [101, 401],
  );
  const text = JSON.stringify(logged);
  assert.ok(!text.includes(token.split(".")[2]!) && !text.includes(forged.split(".")[2]!));
});
