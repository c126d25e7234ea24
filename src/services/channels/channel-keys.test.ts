import { describe, expect, test } from "bun:test";
import {
  allKeysDisabled,
  channelKeysOf,
  joinKeys,
  KeyStatus,
  keyStates,
  maskKey,
  multiKeyInfo,
  parseChannelInfo,
  primaryKeyOf,
  splitKeyText,
  withKeyStatus,
  withoutKeys,
} from "./channel-keys.ts";

describe("multi-key channels' keys", () => {
  test("lines for most types, a JSON array of key files for Vertex (41); repeats and blanks dropped", () => {
    expect(splitKeyText(1, " a \n\nb\na\n")).toEqual(["a", "b"]);
    const files = [{ client_email: "one@x" }, { client_email: "two@x" }];
    expect(splitKeyText(41, JSON.stringify(files)).map((key) => JSON.parse(key).client_email)).toEqual(["one@x", "two@x"]);
    expect(splitKeyText(41, '{"client_email":"alone@x"}')).toEqual(['{"client_email":"alone@x"}']);
    expect(JSON.parse(joinKeys(41, splitKeyText(41, JSON.stringify(files))))).toEqual(files);
  });

  test("a one-key channel's key is never split; a multi-key one's primary key is its first enabled", () => {
    expect(channelKeysOf({ type: 1, key: "a\nb", channel_info: "" })).toEqual(["a\nb"]);
    const info = withKeyStatus(multiKeyInfo(3, "random"), 0, KeyStatus.autoDisabled, "dead", 5);
    expect(primaryKeyOf({ type: 1, key: "a\nb\nc", channel_info: JSON.stringify(info) })).toBe("b");
  });

  test("statuses move with their keys when keys are removed", () => {
    let info = multiKeyInfo(4, "polling");
    info = withKeyStatus(info, 1, KeyStatus.autoDisabled, "dead", 7);
    info = withKeyStatus(info, 3, KeyStatus.manuallyDisabled);
    const after = withoutKeys(info, 4, new Set([0]));
    expect(keyStates(after, 3)).toEqual([
      { index: 0, status: 3, reason: "dead", time: 7 },
      { index: 1, status: 1 },
      { index: 2, status: 2, time: after.multi_key_disabled_time?.["2"] },
    ]);
    expect(allKeysDisabled(after, 3)).toBe(false);
    expect(allKeysDisabled(withKeyStatus(after, 1, KeyStatus.autoDisabled), 3)).toBe(true);
    expect(keyStates(withKeyStatus(after, 0, KeyStatus.enabled), 3)[0]).toEqual({ index: 0, status: 1 });
  });

  test("new-api's channel_info is read as it stores it; keys are shown masked", () => {
    const info = parseChannelInfo('{"is_multi_key":true,"multi_key_size":2,"multi_key_status_list":{"1":3},"multi_key_mode":"polling"}');
    expect(keyStates(info, 2).map((state) => state.status)).toEqual([1, 3]);
    expect(parseChannelInfo("not json")).toEqual({});
    expect(maskKey("sk-abcdefghijklmnop1234")).toBe("sk-abc…1234");
    expect(maskKey('{"client_email":"bot@project.iam"}')).toBe("bot@project.iam");
  });
});
