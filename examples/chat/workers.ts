// Cloudflare Workers: each room is a Durable Object (hibernating while idle) that runs the chat's
// channel, so a message reaches every member of the room. Bind the class in wrangler's config:
//   [[durable_objects.bindings]]  name = "ROOMS"  class_name = "ChatRooms"
//   [[migrations]]  tag = "v1"  new_classes = ["ChatRooms"]

import { createApp } from "portico";
import { channelHost, forwardTo } from "portico/workers";
import { chatApp } from "./app.ts";

const chat = chatApp();

/** The Durable Object class of the rooms. */
export const ChatRooms = channelHost(chat);

const front = createApp();
front.get(
  "/chat/:room",
  forwardTo("ROOMS", (ctx) => ctx.request.pathParams.room ?? "lobby"),
);
front.get("/", (ctx) => chat.fetch(ctx.request.raw));

export default front;
