// A form the console's script sends as JSON must not leak its fields into an address when the
// script is missing (blocked, not loaded yet, failed): the browser's own submit of a form without
// a method is a GET, which put the password of the sign-in form in the URL, the history and
// the server's access log. Every such form says method="post".
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

test("forms sent by the console's script are POST forms for the browser too", async () => {
  for (const path of ["/login", "/register", "/reset"]) {
    const html = await (await fetch(`${server.url}${path}`)).text();
    const forms = [...html.matchAll(/<form\b[^>]*data-api-form="(POST|PUT|DELETE|PATCH) [^"]*"[^>]*>/g)].map((match) => match[0]);
    if (path === "/login") expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect({ path, form }).toEqual({ path, form: expect.stringContaining('method="post"') });
  }
});
