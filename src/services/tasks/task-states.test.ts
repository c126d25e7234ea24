import { expect, test } from "bun:test";
import { isEarlierState, mergeState } from "./task-states.ts";

const state = (status: string, progress = "", failReason = "") => ({ status, progress, failReason });

test("a task moves forward only", () => {
  expect(mergeState(state("SUBMITTED", "0%"), state("IN_PROGRESS", "40%"), "none")).toEqual(state("IN_PROGRESS", "40%"));
  expect(mergeState(state("IN_PROGRESS", "40%"), state("SUBMITTED", "0%"), "none")).toBeUndefined();
  expect(mergeState(state("IN_PROGRESS", "60%"), state("IN_PROGRESS", "40%"), "none")).toBeUndefined();
  expect(mergeState(state("IN_PROGRESS", "60%"), state("IN_PROGRESS", ""), "none")).toBeUndefined();
  expect(mergeState(state("MODAL", "0%"), state("SUBMITTED", "0%"), "none")).toEqual(state("SUBMITTED", "0%"));
});

test("a finished task stays finished, at 100%, with a reason when it failed", () => {
  expect(mergeState(state("IN_PROGRESS", "90%"), state("SUCCESS", "99%"), "none")).toEqual(state("SUCCESS", "100%"));
  expect(mergeState(state("SUBMITTED", "0%"), state("FAILURE", "0%"), "none")).toEqual(state("FAILURE", "100%", "none"));
  expect(mergeState(state("SUBMITTED", "0%"), state("FAILURE", "0%", "banned"), "none")).toEqual(state("FAILURE", "100%", "banned"));
  expect(mergeState(state("SUCCESS", "100%"), state("FAILURE", "100%", "late"), "none")).toBeUndefined();
  expect(mergeState(state("FAILURE", "100%", "x"), state("SUCCESS", "100%"), "none")).toBeUndefined();
  expect(isEarlierState("SUCCESS", "SUCCESS")).toBe(true);
});

test("unknown or missing statuses never overwrite a known one", () => {
  expect(isEarlierState("SUBMITTED", "WHATEVER")).toBe(true);
  expect(isEarlierState("SUBMITTED", "")).toBe(true);
  expect(mergeState(state(""), state("WHATEVER", "5%"), "none")).toEqual(state("UNKNOWN", "5%"));
});
