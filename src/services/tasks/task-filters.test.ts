import { expect, test } from "bun:test";
import { asyncTaskFilterFromQuery, drawingFilterFromQuery } from "./task-filters.ts";

test("users read their own tasks; only admins filter by channel", () => {
  expect(drawingFilterFromQuery({ channel_id: "3", mj_id: " 42 " }, { userId: 7, admin: false })).toEqual({ userId: 7, channelId: 0, mjId: "42", startMs: 0, endMs: 0 });
  expect(asyncTaskFilterFromQuery({ channel_id: "3", task_id: "t" }, { userId: 7, admin: true })).toMatchObject({ userId: undefined, channelId: 3, taskId: "t" });
});

test("time bounds are read in either unit: drawings in milliseconds, other tasks in seconds", () => {
  expect(drawingFilterFromQuery({ start_timestamp: "1700000000", end_timestamp: "1700000000123" }, { userId: 1, admin: true })).toMatchObject({
    startMs: 1_700_000_000_000,
    endMs: 1_700_000_000_123,
  });
  expect(asyncTaskFilterFromQuery({ start_timestamp: "1700000000999", end_timestamp: "1700000500" }, { userId: 1, admin: true })).toMatchObject({
    startSeconds: 1_700_000_000,
    endSeconds: 1_700_000_500,
  });
  expect(drawingFilterFromQuery({ start_timestamp: "soon", end_timestamp: "-5" }, { userId: 1, admin: true })).toMatchObject({ startMs: 0, endMs: 0 });
});
