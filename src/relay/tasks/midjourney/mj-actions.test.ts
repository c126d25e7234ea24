import { describe, expect, test } from "bun:test";
import { isAppError } from "../../../errors/app-error.ts";
import { actionOfCustomId, modelOfAction, readSubmission } from "./mj-actions.ts";
import { upstreamBody } from "./mj-upstream.ts";

describe("reading a submission", () => {
  test("simple kinds name their action and model", () => {
    expect(readSubmission("imagine", { prompt: "a cat" })).toEqual({ action: "IMAGINE", model: "mj_imagine", prompt: "a cat" });
    expect(readSubmission("upload-discord-images", {})).toMatchObject({ action: "UPLOAD", model: "mj_upload" });
    expect(readSubmission("insight-face", {})).toMatchObject({ action: "SWAP_FACE", model: "swap_face" });
    expect(readSubmission("swap_face", {})).toMatchObject({ action: "SWAP_FACE", model: "swap_face" });
  });

  test("follow-ups carry the original task", () => {
    expect(readSubmission("change", { action: "variation", index: 2, taskId: "123" })).toEqual({
      action: "VARIATION",
      model: "mj_variation",
      originTaskId: "123",
      prompt: "",
    });
    expect(readSubmission("simple-change", { content: "123 U4" })).toMatchObject({ action: "UPSCALE", originTaskId: "123" });
    expect(readSubmission("simple-change", { content: "456 r" })).toMatchObject({ action: "REROLL", originTaskId: "456" });
    expect(readSubmission("modal", { taskId: 789, prompt: "more" })).toEqual({
      action: "MODAL",
      model: "mj_modal",
      originTaskId: "789",
      prompt: "more",
    });
    expect(readSubmission("action", { customId: "MJ::JOB::pan_left::1::abc::SOLO", taskId: "9" })).toMatchObject({
      action: "PAN",
      model: "mj_pan",
    });
  });

  test("what cannot be priced or routed is refused", () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return isAppError(error) ? error.code : "other";
      }
      return "accepted";
    };
    expect(refusal(() => readSubmission("change", { action: "ZOOM", taskId: "1" }))).toBe("invalid_action");
    expect(refusal(() => readSubmission("change", { action: "UPSCALE" }))).toBe("task_id_missing");
    expect(refusal(() => readSubmission("simple-change", { content: "123 U5" }))).toBe("invalid_action");
    expect(refusal(() => readSubmission("action", { customId: "MJ::BOOKMARK::1", taskId: "1" }))).toBe("invalid_action");
  });
});

test("buttons map to the actions the price list knows", () => {
  const cases: [string, string | undefined][] = [
    ["MJ::JOB::upsample::2::h", "UPSCALE"],
    ["MJ::JOB::upsample_v6_2x_subtle::1::h::SOLO", "UPSCALE"],
    ["MJ::JOB::variation::1::h", "VARIATION"],
    ["MJ::JOB::low_variation::1::h::SOLO", "LOW_VARIATION"],
    ["MJ::JOB::high_variation::1::h::SOLO", "HIGH_VARIATION"],
    ["MJ::JOB::reroll::0::h::SOLO", "REROLL"],
    ["MJ::Outpaint::50::1::h::SOLO", "ZOOM"],
    ["MJ::CustomZoom::h", "CUSTOM_ZOOM"],
    ["MJ::Inpaint::1::h::SOLO", "INPAINT"],
    ["MJ::JOB::bookmark::1::h", undefined],
    ["other", undefined],
  ];
  for (const [customId, action] of cases) expect([customId, actionOfCustomId(customId)]).toEqual([customId, action]);
  expect(["IMAGINE", "CUSTOM_ZOOM", "SWAP_FACE"].map(modelOfAction)).toEqual(["mj_imagine", "mj_custom_zoom", "swap_face"]);
});

test("the body sent upstream follows the drawing options and never carries the client's hook", () => {
  const body = {
    prompt: "a ship --fast --ar 3:2 --turbo",
    accountFilter: { modes: ["FAST"] },
    notifyHook: "https://client.example/hook",
    state: "s",
  };
  expect(upstreamBody(body, { accountFilter: false, modeClear: false })).toEqual({ prompt: "a ship --fast --ar 3:2 --turbo", state: "s" });
  expect(upstreamBody(body, { accountFilter: true, modeClear: true, notifyUrl: "https://gw.example/mj/notify?x" })).toEqual({
    prompt: "a ship --ar 3:2",
    accountFilter: { modes: ["FAST"] },
    notifyHook: "https://gw.example/mj/notify?x",
    state: "s",
  });
});
