// What the HTTP faces (api, console, relay) are built from. Created once in app.ts.
import type { Config } from "../config.ts";
import type { AuthGuard } from "./auth-guard.ts";

export type WebDeps = {
  config: Config;
  /** Plugin with the `role` macro and the session JWT (see auth-guard.ts). */
  auth: AuthGuard;
};
