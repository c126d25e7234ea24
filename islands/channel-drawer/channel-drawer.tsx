/** @jsxImportSource react */
// The channel drawer: create and edit a channel with
// the type catalogue (docs/COMPATIBILITY.md, Channel types: key format hints, defaults), models with fetch-from-upstream
// and custom names, groups, JSON mappings with templates, priority, weight, auto-ban, test model,
// tag and batch keys. Opened by [data-channel-add] / [data-channel-edit] buttons of the page;
// every rule is checked by the server, whose message is shown as it is, inside the drawer: beside
// the field the server names (`data.field`), else above the submit button. The drawer covers the
// page's toast corner, so nothing it has to say goes there.
import { useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { ApiFailure, apiCall } from "../../console-runtime/api-client.ts";
import { fieldOfRefusal } from "../../console-runtime/form-errors.ts";
import { showToast } from "../../console-runtime/toasts.ts";
import { createIslandTranslator } from "../island-i18n.ts";
import { channels, common } from "../../src/i18n/namespaces.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { channelTypeInfo, channelTypes, defaultKeyHint } from "../../src/services/channels/channel-types.ts";
import { bodyOf, emptyForm, formOf, templates, withType, type ChannelForm, type ChannelRecord } from "./channel-form.ts";
import { Field, GroupPicker, JsonField } from "./channel-fields.tsx";
import { ModelPicker } from "./model-picker.tsx";
import { fieldsWithErrors, type Notice } from "./drawer-notice.ts";
import { KeyList } from "./key-list.tsx";
import { KeyModeFields } from "./key-mode-fields.tsx";
import { defineIsland } from "../island-definition.ts";

function refreshTable(): void {
  const table = document.getElementById("channel-table");
  if (table) window.htmx?.trigger(table, "refresh");
}

export type ChannelDrawerProps = {
  language: Language;
  groups: string[];
  /** Kinds this build cannot relay (src/relay/relayable-kinds.ts): listed, marked and not selectable. */
  unrelayable?: number[];
  /** Open at once: /channel/add ("add") or /channel/edit/{id} (the id). */
  initial?: "add" | number;
};

declare global {
  interface Window {
    htmx?: { trigger(element: Element | string, event: string): void };
  }
}

export function ChannelDrawer(props: ChannelDrawerProps) {
  const t = useMemo(() => createIslandTranslator(props.language, [channels, common]), [props.language]);
  const dialog = useRef<HTMLDialogElement>(null);
  const [editId, setEditId] = useState<number | undefined>(undefined);
  const [form, setForm] = useState<ChannelForm>(() => emptyForm());
  const [knownModels, setKnownModels] = useState<string[]>([]);
  const [fetchedModels, setFetchedModels] = useState<string[]>([]);
  const [fetching, setFetching] = useState(false);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice | undefined>(undefined);
  const info = channelTypeInfo(form.type);
  const fieldOfForm: Partial<Record<keyof ChannelForm, string>> = { groups: "group" };
  const set = <K extends keyof ChannelForm>(name: K, value: ChannelForm[K]) => {
    setForm((current) => ({ ...current, [name]: value }));
    // Changing the field at fault takes its message away.
    setNotice((current) => (current?.field === (fieldOfForm[name] ?? name) ? undefined : current));
  };
  const errorOf = (field: string) => (notice?.kind === "error" && notice.field === field ? notice.text : undefined);
  const footError = notice?.kind === "error" && !fieldsWithErrors.has(notice.field ?? "") ? notice.text : undefined;
  // A new refusal scrolls to where it is shown.
  useEffect(() => {
    if (notice?.kind === "error") dialog.current?.querySelector("[role=alert]")?.scrollIntoView({ block: "nearest" });
  }, [notice]);

  async function open(target: "add" | number) {
    setFetchedModels([]);
    setNotice(undefined);
    if (target === "add") {
      setEditId(undefined);
      setForm(emptyForm());
    } else {
      try {
        const envelope = await apiCall<ChannelRecord>("GET", `/api/channel/${target}`);
        setEditId(target);
        setForm(formOf(envelope.data!));
      } catch {
        return;
      }
    }
    dialog.current?.showModal();
    if (knownModels.length === 0) {
      apiCall<{ id: string }[]>("GET", "/api/channel/models", undefined, true)
        .then((envelope) => setKnownModels(envelope.data!.map((model) => model.id)))
        .catch(() => {});
    }
  }

  // The page's buttons open the drawer with this render's state (known models included).
  const openFromPage = useEffectEvent((target: "add" | number) => void open(target));
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-channel-add],[data-channel-edit]");
      if (!button) return;
      openFromPage(button.dataset.channelEdit ? Number(button.dataset.channelEdit) : "add");
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
  useEffect(() => {
    if (props.initial !== undefined) openFromPage(props.initial);
  }, [props.initial]);

  async function fetchModels() {
    if (editId === undefined && !form.key.trim()) return setNotice({ kind: "error", text: t("请填写密钥"), field: "key" });
    setFetching(true);
    setNotice(undefined);
    try {
      const envelope =
        editId !== undefined
          ? await apiCall<string[]>("GET", `/api/channel/fetch_models/${editId}`, undefined, true)
          : await apiCall<string[]>(
              "POST",
              "/api/channel/fetch_models",
              { base_url: form.base_url, type: form.type, key: form.key.split("\n")[0] },
              true,
            );
      const models = envelope.data ?? [];
      setFetchedModels(models);
      set("models", models);
      setNotice({ kind: "success", text: t("获取到 {{count}} 个模型", { count: models.length }), field: "models" });
    } catch (error) {
      const reason = error instanceof Error && error.message ? `: ${error.message}` : "";
      setNotice({ kind: "error", text: t("获取模型列表失败") + reason, field: "models" });
    } finally {
      setFetching(false);
    }
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return setNotice({ kind: "error", text: t("提交失败，请勿重复提交！") });
    setSaving(true);
    setNotice(undefined);
    try {
      const envelope = await apiCall(editId !== undefined ? "PUT" : "POST", "/api/channel/", bodyOf(form, editId), true);
      // Closed first: the toast then shows on the page the user looks at again.
      dialog.current?.close();
      showToast(envelope.message || t("操作成功完成！"), "success");
      refreshTable();
    } catch (error) {
      // A refusal shows in the drawer (the specification's wording); a failed request was
      // already reported by apiCall, in a toast inside this dialog.
      if (error instanceof ApiFailure && error.envelope)
        setNotice({ kind: "error", text: error.envelope.message || error.message, field: fieldOfRefusal(error.envelope.data) });
    } finally {
      setSaving(false);
    }
  }

  const keyHint = editId !== undefined ? t("留空则不修改密钥") : t(info?.keyHint ?? defaultKeyHint);
  const multilineKey = form.keyMode !== "single" || info?.jsonKey;
  const keyHints: Record<string, string | undefined> = {
    single: undefined,
    batch: t("批量创建：一行一个密钥，每个密钥创建一个渠道"),
    multi: info?.jsonKey ? t("多密钥：JSON 数组，每个元素一个密钥文件") : t("多密钥：一行一个密钥，都在这一个渠道里"),
  };
  return (
    <dialog ref={dialog} className="modal modal-end" aria-labelledby="channel-drawer-title">
      <div className="modal-box flex h-full max-h-screen w-full max-w-2xl flex-col rounded-none">
        <div className="mb-2 flex items-center justify-between">
          <h3 id="channel-drawer-title" className="text-lg font-bold">
            {editId !== undefined ? t("更新渠道信息") : t("创建新的渠道")}
          </h3>
          <button type="button" className="btn btn-ghost btn-sm btn-circle" aria-label={t("关闭")} onClick={() => dialog.current?.close()}>
            {"✕"}
          </button>
        </div>
        <form className="flex flex-1 flex-col gap-3 overflow-y-auto pr-1" onSubmit={submit} noValidate>
          <Field label={t("类型")}>
            <select
              className="select select-bordered w-full"
              value={form.type}
              onChange={(event) =>
                setForm((current) =>
                  editId === undefined ? withType(current, Number(event.target.value)) : { ...current, type: Number(event.target.value) },
                )
              }
            >
              {channelTypes.map((type) => {
                const unsupported = props.unrelayable?.includes(type.type) ?? false;
                return (
                  <option key={type.type} value={type.type} disabled={unsupported && form.type !== type.type}>
                    {unsupported ? t("{{name}}（暂不支持）", { name: t(type.name) }) : t(type.name)}
                  </option>
                );
              })}
            </select>
          </Field>
          {info?.notice ? <div className="alert alert-info text-sm">{t(info.notice)}</div> : null}
          <Field label={t("名称")} error={errorOf("name")}>
            <input
              className="input input-bordered w-full"
              placeholder={t("请为渠道命名")}
              value={form.name}
              onChange={(event) => set("name", event.target.value)}
            />
          </Field>
          <Field label={t("代理地址")} hint={info?.baseUrlHint ? t(info.baseUrlHint) : undefined} error={errorOf("base_url")}>
            <input
              className="input input-bordered w-full"
              placeholder={t(info?.baseUrlHint ?? "此项可选，用于通过自定义 API 地址来进行 API 调用，末尾不要带 /v1 和 /")}
              value={form.base_url}
              onChange={(event) => set("base_url", event.target.value)}
            />
          </Field>
          {info?.other ? (
            <Field label={t(info.other.label)} error={errorOf("other")}>
              {form.type === 41 ? (
                <textarea
                  className="textarea textarea-bordered w-full font-mono text-xs"
                  rows={3}
                  placeholder={t(info.other.hint)}
                  value={form.other}
                  onChange={(event) => set("other", event.target.value)}
                />
              ) : (
                <input
                  className="input input-bordered w-full"
                  placeholder={t(info.other.hint)}
                  value={form.other}
                  onChange={(event) => set("other", event.target.value)}
                />
              )}
            </Field>
          ) : null}
          <Field label={t("密钥")} hint={keyHints[form.keyMode]} error={errorOf("key")}>
            {multilineKey ? (
              <textarea
                className="textarea textarea-bordered w-full font-mono text-xs"
                rows={4}
                placeholder={keyHint}
                value={form.key}
                onChange={(event) => set("key", event.target.value)}
              />
            ) : (
              <input
                className="input input-bordered w-full font-mono"
                placeholder={keyHint}
                value={form.key}
                autoComplete="off"
                onChange={(event) => set("key", event.target.value)}
              />
            )}
          </Field>
          <KeyModeFields t={t} form={form} editing={editId !== undefined} jsonKey={info?.jsonKey === true} set={set} />
          {editId !== undefined && form.wasMultiKey ? <KeyList t={t} channelId={editId} onChanged={() => refreshTable()} /> : null}
          {info?.organization ? (
            <Field label={t("组织")} error={errorOf("openai_organization")}>
              <input
                className="input input-bordered w-full"
                placeholder={t("请输入组织 org-xxx（可选）")}
                value={form.openai_organization}
                onChange={(event) => set("openai_organization", event.target.value)}
              />
            </Field>
          ) : null}
          <GroupPicker
            t={t}
            groups={props.groups}
            selected={form.groups}
            error={errorOf("group")}
            onChange={(groups) => set("groups", groups)}
          />
          <ModelPicker
            t={t}
            selected={form.models}
            options={[...new Set([...knownModels, ...fetchedModels, ...(info?.models ?? [])])]}
            typeModels={info?.models ?? []}
            fetching={fetching}
            notice={notice?.field === "models" ? notice : undefined}
            onChange={(models) => set("models", models)}
            onFetch={() => void fetchModels()}
            onError={(message) => setNotice({ kind: "error", text: message, field: "models" })}
          />
          <JsonField
            t={t}
            label={t("模型重定向")}
            value={form.model_mapping}
            template={templates.model_mapping}
            error={errorOf("model_mapping")}
            onChange={(value) => set("model_mapping", value)}
          />
          <JsonField
            t={t}
            label={t("状态码复写")}
            value={form.status_code_mapping}
            template={templates.status_code_mapping}
            error={errorOf("status_code_mapping")}
            onChange={(value) => set("status_code_mapping", value)}
          />
          <JsonField
            t={t}
            label={t("渠道额外设置")}
            value={form.setting}
            template={templates.setting}
            error={errorOf("setting")}
            onChange={(value) => set("setting", value)}
          />
          <Field label={t("默认测试模型")} error={errorOf("test_model")}>
            <input
              className="input input-bordered w-full"
              list="channel-test-models"
              placeholder={t("不填则使用模型列表中的第一个")}
              value={form.test_model}
              onChange={(event) => set("test_model", event.target.value)}
            />
            <datalist id="channel-test-models">
              {form.models.map((model) => (
                <option key={model} value={model} />
              ))}
            </datalist>
          </Field>
          <div className="grid grid-cols-2 gap-2">
            <Field label={t("优先级")} error={errorOf("priority")}>
              <input
                type="number"
                min={-999}
                className="input input-bordered w-full"
                value={form.priority}
                onChange={(event) => set("priority", event.target.value)}
              />
            </Field>
            <Field label={t("权重")} error={errorOf("weight")}>
              <input
                type="number"
                min={0}
                className="input input-bordered w-full"
                value={form.weight}
                onChange={(event) => set("weight", event.target.value)}
              />
            </Field>
          </div>
          <Field label={t("标签")} error={errorOf("tag")}>
            <input
              className="input input-bordered w-full"
              placeholder={t("请输入标签名称")}
              value={form.tag}
              onChange={(event) => set("tag", event.target.value)}
            />
          </Field>
          <label className="label cursor-pointer justify-start gap-2">
            <input
              type="checkbox"
              className="toggle toggle-sm"
              checked={form.auto_ban}
              onChange={(event) => set("auto_ban", event.target.checked)}
            />
            <span className="text-sm">{t("失败时自动禁用渠道")}</span>
          </label>
          {footError ? (
            <div role="alert" className="alert alert-error text-sm">
              {footError}
            </div>
          ) : null}
          <button type="submit" className="btn btn-primary mt-2" disabled={saving}>
            {saving ? <span className="loading loading-spinner loading-sm" /> : null}
            {t("提交")}
          </button>
        </form>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="submit" tabIndex={-1} aria-label={t("关闭")}>
          {"✕"}
        </button>
      </form>
    </dialog>
  );
}

/** The island's one declaration (island-definition.ts): rendered by /channel, mounted by channel-drawer.island.tsx. */
export const channelDrawerIsland = defineIsland("channel-drawer", ChannelDrawer);
