// Option value rules (pure): kinds, minimums, JSON shapes and messages, trailing slashes.
import { describe, expect, test } from "bun:test";
import { checkEnableRequirements, normalizeOptionChange } from "../../src/services/options/option-values.ts";
import { internalOptionKeys, optionRegistry, type OptionKey } from "../../src/services/options/option-registry.ts";

const message = (action: () => unknown) => {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
};

describe("normalizeOptionChange", () => {
  test("booleans accept true/false in any case and as JSON booleans", () => {
    expect(normalizeOptionChange({ key: "RegisterEnabled", value: "TRUE" }).value).toBe("true");
    expect(normalizeOptionChange({ key: "RegisterEnabled", value: false }).value).toBe("false");
    expect(message(() => normalizeOptionChange({ key: "RegisterEnabled", value: "1" }))).toBe(
      "配置项 RegisterEnabled 只能是 true 或 false",
    );
  });

  test("numbers are checked for form and minimum", () => {
    expect(normalizeOptionChange({ key: "Price", value: " 7.50 " }).value).toBe("7.5");
    expect(message(() => normalizeOptionChange({ key: "Price", value: "7,5" }))).toBe("请输入数字");
    expect(message(() => normalizeOptionChange({ key: "RetryTimes", value: "1.5" }))).toBe("请输入数字");
    expect(message(() => normalizeOptionChange({ key: "QuotaPerUnit", value: "0" }))).toBe("配置项 QuotaPerUnit 不能小于 1");
  });

  test("JSON options keep their text but must parse into the right shape", () => {
    const value = '{"default": 1, "vip": 1.5}';
    expect(normalizeOptionChange({ key: "GroupRatio", value }).value).toBe(value);
    expect(message(() => normalizeOptionChange({ key: "UserUsableGroups", value: '{"default": 1}' }))).toBe("不是合法的 JSON 字符串");
    expect(message(() => normalizeOptionChange({ key: "TopupGroupRatio", value: "[" }))).toBe("充值分组倍率不是合法的 JSON 字符串");
  });

  test("options with a fixed set of values refuse anything else (DataExportDefaultTime: hour, day or week)", () => {
    for (const value of ["hour", "day", "week", " week "]) {
      expect(normalizeOptionChange({ key: "DataExportDefaultTime", value }).value).toBe(value.trim());
    }
    for (const value of ["month", "", "HOUR"]) {
      expect(message(() => normalizeOptionChange({ key: "DataExportDefaultTime", value }))).toBe(
        "配置项 DataExportDefaultTime 只能是 hour / day / week",
      );
    }
  });

  test("every default passes its own rules", () => {
    for (const [key, definition] of Object.entries(optionRegistry)) {
      if (internalOptionKeys.has(key)) continue;
      expect(() => normalizeOptionChange({ key, value: definition.default })).not.toThrow();
    }
  });
});

describe("checkEnableRequirements", () => {
  test("a login method needs its settings before it is switched on", () => {
    const values: Partial<Record<OptionKey, string>> = { LinuxDOOAuthEnabled: "true", LinuxDOClientId: "id", LinuxDOClientSecret: "" };
    expect(message(() => checkEnableRequirements(["LinuxDOOAuthEnabled"], (key) => values[key] ?? ""))).toBe(
      "无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！",
    );
    values.LinuxDOClientSecret = "secret";
    expect(() => checkEnableRequirements(["LinuxDOOAuthEnabled"], (key) => values[key] ?? "")).not.toThrow();
    // Switching off never needs anything.
    values.LinuxDOOAuthEnabled = "false";
    values.LinuxDOClientSecret = "";
    expect(() => checkEnableRequirements(["LinuxDOOAuthEnabled"], (key) => values[key] ?? "")).not.toThrow();
  });
});
