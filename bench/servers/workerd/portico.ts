import { app } from "../portico-app.ts";

export default app;
