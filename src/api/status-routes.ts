// Public site information: /api/status and the content endpoints new-api clients read.
import { Elysia } from "elysia";
import { optionText } from "../services/options/options.ts";
import { systemStatus } from "../services/status/system-status.ts";
import { ok } from "./envelope.ts";

export const statusRoutes = () =>
  new Elysia({ prefix: "/api" })
    .get("/status", () => ok(systemStatus()))
    .get("/notice", () => ok(optionText("Notice")))
    .get("/about", () => ok(optionText("About")))
    .get("/home_page_content", () => ok(optionText("HomePageContent")));
