/** @jsxImportSource react */
// The channel drawer (spec §2 Channel list, §5 Channel form): create and edit a channel with
// the type catalogue of spec §3 (key format hints, defaults), models with fetch-from-upstream
// and custom names, groups, JSON mappings with templates, priority, weight, auto-ban, test model,
// tag and batch keys. Opened by [data-channel-add] / [data-channel-edit] buttons of the page;
// every rule is checked by the server, whose message is shown as it is.
import { useEffect, useMemo, useRef, useState } from "react";
import { apiCall } from "../console/api-client.ts";
import { showToast } from "../console/toasts.ts";
import { createIslandTranslator } from "../island-i18n.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { channelTypeInfo, channelTypes, defaultKeyHint } from "../../src/services/channels/channel-types.ts";
import zhChannels from "../../src/i18n/locales/zh/channels.json";
import enChannels from "../../src/i18n/locales/en/channels.json";
import zhCommon from "../../src/i18n/locales/zh/common.json";
import enCommon from "../../src/i18n/locales/en/common.json";
import { bodyOf, emptyForm, formOf, templates, withType, type ChannelForm, type ChannelRecord } from "./channel-form.ts";
import { Field, GroupPicker, JsonField } from "./channel-fields.tsx";
import { ModelPicker } from "./model-picker.tsx";

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
  const t = useMemo(() => createIslandTranslator(props.language, [{ zh: zhChannels, en: enChannels }, { zh: zhCommon, en: enCommon }]), [props.language]);
  const dialog = useRef<HTMLDialogElement>(null);
  const [editId, setEditId] = useState<number | undefined>(undefined);
  const [form, setForm] = useState<ChannelForm>(() => emptyForm());
  const [knownModels, setKnownModels] = useState<string[]>([]);
  const [fetchedModels, setFetchedModels] = useState<string[]>([]);
  const [fetching, setFetching] = useState(false);
  const [saving, setSaving] = useState(false);
  const info = channelTypeInfo(form.type);
  const set = <K extends keyof ChannelForm>(name: K, value: ChannelForm[K]) => setForm((current) => ({ ...current, [name]: value }));

  async function open(target: "add" | number) {
    setFetchedModels([]);
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

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const button = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-channel-add],[data-channel-edit]");
      if (!button) return;
      void open(button.dataset.channelEdit ? Number(button.dataset.channelEdit) : "add");
    };
    document.addEventListener("click", onClick);
    if (props.initial !== undefined) void open(props.initial);
    return () => document.removeEventListener("click", onClick);
  }, []);

  async function fetchModels() {
    if (editId === undefined && !form.key.trim()) return showToast(t("请填写密钥"), "error");
    setFetching(true);
    try {
      const envelope =
        editId !== undefined
          ? await apiCall<string[]>("GET", `/api/channel/fetch_models/${editId}`, undefined, true)
          : await apiCall<string[]>("POST", "/api/channel/fetch_models", { base_url: form.base_url, type: form.type, key: form.key.split("\n")[0] }, true);
      const models = envelope.data ?? [];
      setFetchedModels(models);
      set("models", models);
      showToast(t("获取到 {{count}} 个模型", { count: models.length }), "success");
    } catch (error) {
      const reason = error instanceof Error && error.message ? `: ${error.message}` : "";
      showToast(t("获取模型列表失败") + reason, "error");
    } finally {
      setFetching(false);
    }
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (saving) return showToast(t("提交失败，请勿重复提交！"), "error");
    setSaving(true);
    try {
      const envelope = await apiCall(editId !== undefined ? "PUT" : "POST", "/api/channel/", bodyOf(form, editId));
      showToast(envelope.message || t("操作成功完成！"), "success");
      dialog.current?.close();
      const table = document.getElementById("channel-table");
      if (table) window.htmx?.trigger(table, "refresh");
    } catch {
      // apiCall showed the server's message (the specification's wording).
    } finally {
      setSaving(false);
    }
  }

  const keyHint = editId !== undefined ? t("留空则不修改密钥") : t(info?.keyHint ?? defaultKeyHint);
  const multilineKey = form.batch || info?.jsonKey;
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
              onChange={(event) => setForm((current) => (editId === undefined ? withType(current, Number(event.target.value)) : { ...current, type: Number(event.target.value) }))}
            >
              {channelTypes.map((type) => {
                const unsupported = props.unrelayable?.includes(type.value) ?? false;
                return (
                  <option key={type.value} value={type.value} disabled={unsupported && form.type !== type.value}>
                    {unsupported ? t("{{name}}（暂不支持）", { name: t(type.name) }) : t(type.name)}
                  </option>
                );
              })}
            </select>
          </Field>
          {info?.notice ? <div className="alert alert-info text-sm">{t(info.notice)}</div> : null}
          <Field label={t("名称")}>
            <input className="input input-bordered w-full" placeholder={t("请为渠道命名")} value={form.name} onChange={(event) => set("name", event.target.value)} />
          </Field>
          <Field label={t("代理地址")} hint={info?.baseUrlHint ? t(info.baseUrlHint) : undefined}>
            <input className="input input-bordered w-full" placeholder={t(info?.baseUrlHint ?? "此项可选，用于通过自定义 API 地址来进行 API 调用，末尾不要带 /v1 和 /")} value={form.base_url} onChange={(event) => set("base_url", event.target.value)} />
          </Field>
          {info?.other ? (
            <Field label={t(info.other.label)}>
              {form.type === 41 ? (
                <textarea className="textarea textarea-bordered w-full font-mono text-xs" rows={3} placeholder={t(info.other.hint)} value={form.other} onChange={(event) => set("other", event.target.value)} />
              ) : (
                <input className="input input-bordered w-full" placeholder={t(info.other.hint)} value={form.other} onChange={(event) => set("other", event.target.value)} />
              )}
            </Field>
          ) : null}
          <Field label={t("密钥")} hint={form.batch ? t("批量创建：一行一个密钥，每个密钥创建一个渠道") : undefined}>
            {multilineKey ? (
              <textarea className="textarea textarea-bordered w-full font-mono text-xs" rows={4} placeholder={keyHint} value={form.key} onChange={(event) => set("key", event.target.value)} />
            ) : (
              <input className="input input-bordered w-full font-mono" placeholder={keyHint} value={form.key} autoComplete="off" onChange={(event) => set("key", event.target.value)} />
            )}
          </Field>
          {editId === undefined && !info?.jsonKey ? (
            <label className="label cursor-pointer justify-start gap-2">
              <input type="checkbox" className="checkbox checkbox-sm" checked={form.batch} onChange={(event) => set("batch", event.target.checked)} />
              <span className="text-sm">{t("批量创建")}</span>
            </label>
          ) : null}
          {info?.organization ? (
            <Field label={t("组织")}>
              <input className="input input-bordered w-full" placeholder={t("请输入组织 org-xxx（可选）")} value={form.openai_organization} onChange={(event) => set("openai_organization", event.target.value)} />
            </Field>
          ) : null}
          <GroupPicker t={t} groups={props.groups} selected={form.groups} onChange={(groups) => set("groups", groups)} />
          <ModelPicker
            t={t}
            selected={form.models}
            options={[...new Set([...knownModels, ...fetchedModels, ...(info?.models ?? [])])]}
            typeModels={info?.models ?? []}
            fetching={fetching}
            onChange={(models) => set("models", models)}
            onFetch={() => void fetchModels()}
            onError={(message) => showToast(message, "error")}
          />
          <JsonField t={t} label={t("模型重定向")} value={form.model_mapping} template={templates.model_mapping} onChange={(value) => set("model_mapping", value)} />
          <JsonField t={t} label={t("状态码复写")} value={form.status_code_mapping} template={templates.status_code_mapping} onChange={(value) => set("status_code_mapping", value)} />
          <JsonField t={t} label={t("渠道额外设置")} value={form.setting} template={templates.setting} onChange={(value) => set("setting", value)} />
          <Field label={t("默认测试模型")}>
            <input className="input input-bordered w-full" list="channel-test-models" placeholder={t("不填则使用模型列表中的第一个")} value={form.test_model} onChange={(event) => set("test_model", event.target.value)} />
            <datalist id="channel-test-models">
              {form.models.map((model) => (
                <option key={model} value={model} />
              ))}
            </datalist>
          </Field>
          <div className="grid grid-cols-2 gap-2">
            <Field label={t("优先级")}>
              <input type="number" min={-999} className="input input-bordered w-full" value={form.priority} onChange={(event) => set("priority", event.target.value)} />
            </Field>
            <Field label={t("权重")}>
              <input type="number" min={0} className="input input-bordered w-full" value={form.weight} onChange={(event) => set("weight", event.target.value)} />
            </Field>
          </div>
          <Field label={t("标签")}>
            <input className="input input-bordered w-full" placeholder={t("请输入标签名称")} value={form.tag} onChange={(event) => set("tag", event.target.value)} />
          </Field>
          <label className="label cursor-pointer justify-start gap-2">
            <input type="checkbox" className="toggle toggle-sm" checked={form.auto_ban} onChange={(event) => set("auto_ban", event.target.checked)} />
            <span className="text-sm">{t("失败时自动禁用渠道")}</span>
          </label>
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
