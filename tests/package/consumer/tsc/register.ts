// Register augmentation: the app's env and state types reach every context, endpoint and channel.
import { createApp, defineChannel, defineEndpoint } from "portico";

interface User {
  readonly name: string;
}

declare module "portico" {
  interface Register {
    env: { readonly DB: { query(sql: string): string } };
    state: { user?: User };
  }
}

export const registered = createApp();
registered.use(async (ctx, next) => {
  ctx.state.user = { name: "Ada" };
  const rows: string = ctx.env.DB.query("select 1");
  void rows;
  await next();
});

export const Me = defineEndpoint({
  call(ep) {
    const name: string | undefined = ep.context.state.user?.name;
    const rows: string = ep.context.env.DB.query("select 2");
    // @ts-expect-error a binding that is not registered
    ep.context.env.OTHER;
    void name;
    void rows;
  },
});

export const Live = defineChannel({
  onOpen(ch) {
    const rows: string = ch.context.env.DB.query("select 3");
    void rows;
  },
});
