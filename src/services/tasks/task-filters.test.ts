import { expect, test } from "bun:test";
import { taskFilterFromQuery } from "./task-filters.ts";

test("users read their own tasks; only admins filter by channel", () => {
  expect(taskFilterFromQuery("drawing", { channel_id: "3", mj_id: " 42 " }, { userId: 7, admin: false })).toEqual({
    userId: 7,
    channelId: 0,
    upstreamId: "42",
    from: 0,
    to: 0,
  });
  expect(taskFilterFromQuery("music", { channel_id: "3", task_id: "t" }, { userId: 7, admin: true })).toMatchObject({
    userId: undefined,
    channelId: 3,
    upstreamId: "t",
  });
});

test("time bounds are read in either unit: drawings in milliseconds, music in seconds", () => {
  expect(
    taskFilterFromQuery("drawing", { start_timestamp: "1700000000", end_timestamp: "1700000000123" }, { userId: 1, admin: true }),
  ).toMatchObject({
    from: 1_700_000_000_000,
    to: 1_700_000_000_123,
  });
  expect(
    taskFilterFromQuery("music", { start_timestamp: "1700000000999", end_timestamp: "1700000500" }, { userId: 1, admin: true }),
  ).toMatchObject({
    from: 1_700_000_000,
    to: 1_700_000_500,
  });
  expect(taskFilterFromQuery("drawing", { start_timestamp: "soon", end_timestamp: "-5" }, { userId: 1, admin: true })).toMatchObject({
    from: 0,
    to: 0,
  });
});
