/** @jsxImportSource react */
// How the drawer's key text is read: one key, one channel per key line (batch), or one channel
// holding every key (multi-key, new-api's "multi_to_single"), with how a multi-key channel picks
// its key and, when editing one, whether new lines add to its keys or replace them.
import type { IslandTranslate } from "../island-i18n.ts";
import type { ChannelForm, KeyMode } from "./channel-form.ts";

type Set = <K extends keyof ChannelForm>(name: K, value: ChannelForm[K]) => void;

export function KeyModeFields(props: { t: IslandTranslate; form: ChannelForm; editing: boolean; jsonKey: boolean; set: Set }) {
  const { t, form, editing, jsonKey, set } = props;
  const modes: [KeyMode, string][] = [
    ["single", t("单个密钥")],
    ...(!editing && !jsonKey ? [["batch", t("批量创建（每个密钥一个渠道）")] as [KeyMode, string]] : []),
    ["multi", t("多密钥（一个渠道多个密钥）")],
  ];
  return (
    <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
      {!form.wasMultiKey ? (
        <label className="form-control w-full">
          <span className="label-text mb-1 block text-sm">{t("密钥模式")}</span>
          <select
            className="select select-bordered select-sm w-full"
            value={form.keyMode}
            onChange={(event) => set("keyMode", event.target.value as KeyMode)}
          >
            {modes.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {form.keyMode === "multi" ? (
        <label className="form-control w-full">
          <span className="label-text mb-1 block text-sm">{t("密钥选择方式")}</span>
          <select
            className="select select-bordered select-sm w-full"
            value={form.multiKeyMode}
            onChange={(event) => set("multiKeyMode", event.target.value === "polling" ? "polling" : "random")}
          >
            <option value="random">{t("随机")}</option>
            <option value="polling">{t("轮询")}</option>
          </select>
        </label>
      ) : null}
      {editing && form.wasMultiKey ? (
        <label className="label cursor-pointer justify-start gap-2">
          <input
            type="checkbox"
            className="checkbox checkbox-sm"
            checked={form.appendKeys}
            onChange={(event) => set("appendKeys", event.target.checked)}
          />
          <span className="text-sm">{t("新密钥追加到现有密钥（不勾选则替换全部密钥）")}</span>
        </label>
      ) : null}
    </div>
  );
}
