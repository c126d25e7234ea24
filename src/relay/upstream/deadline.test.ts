import { describe, expect, test } from "bun:test";
import { startDeadline } from "./deadline.ts";

describe("upstream deadline", () => {
  test("fires after the silence allowed, aborting with a timeout", async () => {
    const deadline = startDeadline(40);
    await Bun.sleep(80);
    expect(deadline.expired).toBe(true);
    expect(deadline.signal?.aborted).toBe(true);
    expect((deadline.signal!.reason as DOMException).name).toBe("TimeoutError");
  });

  test("activity keeps it from firing; silence after the last activity still ends it", async () => {
    const deadline = startDeadline(60);
    for (let step = 0; step < 6; step++) {
      await Bun.sleep(25);
      deadline.refresh();
    }
    // 150 ms have passed, more than twice the limit, but never 60 ms of silence.
    expect(deadline.expired).toBe(false);
    await Bun.sleep(120);
    expect(deadline.expired).toBe(true);
  });

  test("cleared, it never fires", async () => {
    const deadline = startDeadline(20);
    deadline.refresh();
    deadline.clear();
    await Bun.sleep(60);
    expect(deadline.expired).toBe(false);
    expect(deadline.signal?.aborted).toBe(false);
  });

  test("no limit: no timer and no signal", () => {
    const deadline = startDeadline(0);
    expect(deadline.signal).toBeUndefined();
    expect(deadline.expired).toBe(false);
  });
});
