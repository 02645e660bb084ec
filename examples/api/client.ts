// The typed client of examples/api: `npx tsx examples/api/node.ts` in one terminal, then
// `npx tsx examples/api/client.ts` in another. Only the routes' type is imported from the server code.
import { createClient } from "portico/client";
import type { api } from "./app.ts";

const client = createClient<typeof api>({ baseUrl: process.env.API_URL ?? "http://localhost:3000/api" });

const created = await client.createUser({ json: { user: { name: "Grace", email: "grace@example.com" } } });
if (created.ok) console.log(`created #${created.data.id} ${created.data.name}`);
else if (created.error.name === "EmailTaken") console.log(`taken: ${created.error.payload.email}`);

const missing = await client.getUser({ path: { id: 99 } });
if (!missing.ok && missing.error.name === "UserNotFound") console.log(`no user ${missing.error.payload.id}`);

const list = await client.listUsers({ query: { limit: 5, filter: { name: "Ada" } } });
if (list.ok) console.log(list.data.users.map((user) => user.name).join(", "));
