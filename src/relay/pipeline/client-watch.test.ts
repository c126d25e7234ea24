import { expect, test } from "bun:test";
import { watchClient } from "./client-watch.ts";

/** Starts a watch whose closure holds a large answer; only a weak reference to it is kept. */
function watchedAnswer(limitMs: number, stopAtOnce: boolean): WeakRef<object> {
  const held = { bytes: new Uint8Array(1024 * 1024) };
  const watch = watchClient(
    () => (held.bytes.byteLength > 0 ? -1 : 0),
    limitMs,
    () => {},
  );
  if (stopAtOnce) watch.stop();
  return new WeakRef(held);
}

test("a stopped watch lets go of its answer at once; one left running holds it until its timer fires", async () => {
  const stopped = watchedAnswer(300_000, true);
  const running = watchedAnswer(300_000, false);
  await Bun.sleep(0);
  Bun.gc(true);
  expect(stopped.deref()).toBeUndefined();
  // The check: the same watch not stopped keeps its answer reachable for STREAMING_TIMEOUT
  // (its timer is unref'd: it does not keep this process alive).
  expect(running.deref()).toBeDefined();
});

test("a client that reads nothing is reported once the limit passed; a stopped watch reports nothing", async () => {
  let since = performance.now();
  const reported: string[] = [];
  watchClient(
    () => since,
    30,
    () => reported.push("stalled"),
  );
  const stopped = watchClient(
    () => performance.now(),
    30,
    () => reported.push("stopped one"),
  );
  stopped.stop();
  await Bun.sleep(120);
  expect(reported).toEqual(["stalled"]);
  since = -1;
});
