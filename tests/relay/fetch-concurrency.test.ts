// No hidden queue: Bun's fetch lets 256 requests be in flight per process unless
// BUN_CONFIG_MAX_HTTP_REQUESTS says otherwise, and the gateway sets it for itself at start
// (src/runtime-environment.ts), with no variable for the operator to know. 300 calls held open by
// the upstream at once must all reach it at once. The test's clients speak HTTP over plain
// sockets, since the test process's own fetch has the same limit.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newUserSession } from "../helpers/api-session.ts";
import { addChannel, addToken, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, { key: "sk-many", models: "gpt-4o-mini" });
});
afterAll(() => world.stop());

/** One HTTP/1.1 POST on its own connection; resolves with the status line. */
function post(port: number, path: string, key: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    void Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(socket) {
          socket.write(
            `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk-${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
          );
        },
        data(_socket, data) {
          received += data.toString();
        },
        close() {
          resolve(received.split("\r\n")[0] ?? "");
        },
        error(_socket, error) {
          reject(error);
        },
      },
    }).catch(reject);
  });
}

test("300 calls at once reach the upstream at once", async () => {
  const session = await newUserSession(world.server.url, "many");
  await world.server.store.query("update users set quota = 100000000 where id = ?", session.userId);
  const token = await addToken(session, { name: "many" });
  world.upstream.reset();
  world.upstream.behave("sk-many", { delayMs: 2000 });
  const body = JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }], max_tokens: 5 });
  const statuses = await Promise.all(Array.from({ length: 300 }, () => post(world.server.port, "/v1/chat/completions", token.key, body)));
  expect(new Set(statuses)).toEqual(new Set(["HTTP/1.1 200 OK"]));
  expect(world.upstream.mostAtOnce()).toBe(300);
}, 60_000);
