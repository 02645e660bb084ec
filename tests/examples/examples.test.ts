import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, test } from "node:test";
import { app as api } from "../../examples/api/app.ts";
import { app as chat } from "../../examples/chat/app.ts";
import { app as hello } from "../../examples/hello/app.ts";
import { serve } from "../../src/adapters/node.ts";
import { wsSession } from "../conformance/client.ts";

describe("examples/hello", () => {
  test("routes, a namespace and the 404", async () => {
    assert.match(
      await (await hello.request("/")).text(),
      /^Hello from Portico!\nYour request id is [A-Za-z0-9_-]{12}-[0-9a-z]+\n$/,
    );
    assert.equal(await (await hello.request("/hello/Ada")).text(), "Hello, Ada!");
    assert.deepEqual(await (await hello.request("/api/echo/a/b?x=1")).json(), { path: "a/b", query: "x=1" });
    const missing = await hello.request("/nope");
    assert.deepEqual([missing.status, await missing.text()], [404, "404 Not Found"]);
    assert.match(missing.headers.get("server-timing") ?? "", /^app;dur=/);
  });

  test("`npm start` starts it on Node and prints its URL", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "examples/hello/node.ts"], {
      env: { ...process.env, PORT: "0" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)));
        setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
      });
      assert.equal(await (await fetch(new URL("/hello/you", url))).text(), "Hello, you!");
    } finally {
      child.kill("SIGTERM");
    }
  });
});

describe("examples/api", () => {
  const json = { "content-type": "application/json", accept: "application/json" };

  test("lists and reads users, in JSON or text", async () => {
    assert.deepEqual(await (await api.request("/api/users?limit=1")).json(), {
      users: [{ id: 1, name: "Ada", email: "ada@example.com", joined: "2024-01-02T03:04:05.000Z" }],
      offset: 0,
      limit: 1,
    });
    assert.equal(
      await (await api.request("/api/users/1", { headers: { accept: "text/plain" } })).text(),
      "#1 Ada <ada@example.com>",
    );
    const bad = await api.request("/api/users?limit=500");
    assert.equal(bad.status, 400);
  });

  test("declared errors with payloads", async () => {
    const res = await api.request("/api/users/99", { headers: { accept: "application/json" } });
    assert.deepEqual(await res.json(), {
      error: { name: "User Not Found", message: "No user with id 99", code: 404, payload: { id: 99 } },
    });
  });

  test("creates users from JSON (the declared 201); a taken email is a 409", async () => {
    const body = JSON.stringify({ user: { name: " Grace ", email: "grace@example.com" } });
    const created = await api.request("/api/users", { method: "POST", headers: json, body });
    assert.equal(created.status, 201);
    const user = (await created.json()) as { id: number; name: string };
    assert.equal(user.name, "Grace");
    assert.equal(created.headers.get("location"), `/api/users/${user.id}`);
    const again = await api.request("/api/users", { method: "POST", headers: json, body });
    assert.deepEqual(
      [again.status, ((await again.json()) as { error: { message: string } }).error.message],
      [409, "grace@example.com is already registered"],
    );
  });

  test("creates posts from a form or JSON (201), rendered as HTML on request", async () => {
    const form = await api.request("/api/users/1/posts", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: "post[title]=From+a+<form>&post[body]=Hi",
    });
    assert.equal(form.status, 201);
    assert.equal(await form.text(), "<article><h1>From a &lt;form&gt;</h1><p>Hi</p></article>");
    const location = form.headers.get("location")!;
    assert.equal((await api.request(location)).status, 200);
    const viaJson = await api.request("/api/users/1/posts", {
      method: "POST",
      headers: json,
      body: '{"post":{"title":"T","body":"B"}}',
    });
    assert.equal(viaJson.status, 201);
    const neither = await api.request("/api/users/1/posts", { method: "POST", body: "x" });
    assert.deepEqual(
      [neither.status, await neither.text()],
      [415, "415 Missing Body — Send the post as a form or as JSON"],
    );
  });
});

describe("examples/chat", () => {
  test("members of a room hear each other; a full room closes with 4029", async () => {
    const server = await serve(chat, { port: 0 });
    try {
      const origin = server.url.origin;
      let entered = () => {};
      const aliceIn = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const alice = wsSession(origin, "/chat/lobby?name=alice", {
        closeAfter: 3,
        onMessage: () => entered(),
      });
      await aliceIn;
      const bob = await wsSession(origin, "/chat/lobby?name=bob", { send: ["hi all"], closeAfter: 2 });
      assert.deepEqual(bob.messages, ["* bob joined (2 here)", "bob: hi all"]);
      assert.deepEqual((await alice).messages, [
        "* alice joined (1 here)",
        "* bob joined (2 here)",
        "bob: hi all",
      ]);
      const full = await wsSession(origin, "/chat/lobby?name=carol&capacity=0");
      assert.deepEqual([full.code, full.reason], [4029, "Room Full"]);
      const badName = await wsSession(origin, "/chat/Bad_Room?name=x");
      assert.equal(badName.code, 4000);
    } finally {
      await server.close();
    }
  });
});

describe("the examples' own instructions", () => {
  test("every URL an example's comments give answers (not a 404)", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const apps = { api, chat, hello } as const;
    let checked = 0;
    for (const name of Object.keys(apps) as (keyof typeof apps)[]) {
      for (const file of readdirSync(`examples/${name}`).filter((f) => f.endsWith(".ts"))) {
        const text = readFileSync(`examples/${name}/${file}`, "utf8");
        for (const [, path] of text.matchAll(/^\/\/.*?localhost:\d+(\/[^\s`'"]*)/gm)) {
          const res = await apps[name].request(path!, { headers: { accept: "text/plain" } });
          assert.notEqual(res.status, 404, `examples/${name}/${file}: ${path}`);
          await res.arrayBuffer();
          checked++;
        }
      }
    }
    assert.ok(checked > 0, "the examples give URLs");
  });
});
