/** @jsxImportSource react */
// Every model a channel serves without a price, priced in one place: the vendor's prices in
// dollars per million tokens (input, output) or per call, for as many models as the operator
// fills, saved together (PUT /api/pricing/models, a Switchyard price list). The server converts
// them to ratios (ratio 1 = $2 per million input tokens) and checks them again.
import { useMemo, useState } from "react";
import { apiCall } from "../../console-runtime/api-client.ts";
import { showToast } from "../../console-runtime/toasts.ts";
import type { Language } from "../../src/i18n/languages.ts";
import type { UnpricedModel } from "../../src/services/pricing/unpriced-models.ts";
import { matchesModelQuery } from "../shared/model-search.ts";
import { pricingTranslator } from "../shared/pricing-translator.ts";
import { defineIsland } from "../island-definition.ts";

export type UnpricedModelsProps = { language: Language; models: UnpricedModel[] };

type Entry = { input: string; output: string; perCall: string };
const blank: Entry = { input: "", output: "", perCall: "" };
const numeric = /^(\d+\.?\d*|\.\d+)?$/;

type ListPrice = { input: number; output?: number } | { per_call: number };

/** The filled rows as a price list; a row half filled is a mistake to show, not to guess. */
function priceList(entries: Record<string, Entry>): { models: Record<string, ListPrice>; problem?: string } {
  const models: Record<string, ListPrice> = {};
  for (const [model, entry] of Object.entries(entries)) {
    if (entry.perCall !== "") models[model] = { per_call: Number(entry.perCall) };
    else if (entry.input !== "")
      models[model] = entry.output === "" ? { input: Number(entry.input) } : { input: Number(entry.input), output: Number(entry.output) };
    else if (entry.output !== "") return { models, problem: model };
  }
  return { models };
}

export function UnpricedModels(props: UnpricedModelsProps) {
  const t = pricingTranslator(props.language);
  const [entries, setEntries] = useState<Record<string, Entry>>({});
  const [search, setSearch] = useState("");
  const [saving, setSaving] = useState(false);
  const shown = useMemo(() => props.models.filter((model) => matchesModelQuery(model.model, search)), [props.models, search]);
  const fields: [keyof Entry, string][] = [
    ["input", t("输入 $/1M")],
    ["output", t("输出 $/1M")],
    ["perCall", t("或按次 $")],
  ];

  if (props.models.length === 0) {
    return <p className="text-success text-sm">{t("渠道提供的所有模型都已定价。")}</p>;
  }

  const edit = (model: string, field: keyof Entry, value: string) => {
    if (!numeric.test(value.trim())) return showToast(t("请输入数字"), "error");
    setEntries((all) => ({ ...all, [model]: { ...(all[model] ?? blank), [field]: value.trim() } }));
  };

  const save = async () => {
    const { models, problem } = priceList(entries);
    if (problem) return showToast(t("模型 {{model}} 只填了输出价格，请同时填写输入价格", { model: problem }), "error");
    if (Object.keys(models).length === 0) return showToast(t("请至少为一个模型填写价格"), "warning");
    setSaving(true);
    try {
      await apiCall("PUT", "/api/pricing/models", { source: "console", models });
      sessionStorage.setItem("pending-toast", t("已为 {{count}} 个模型定价", { count: Object.keys(models).length }));
      window.location.reload();
    } catch {
      setSaving(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <input
          className="input input-bordered input-sm w-64"
          type="search"
          placeholder={t("按名称的任意部分搜索")}
          aria-label={t("搜索未定价模型")}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button type="button" className="btn btn-primary btn-sm" disabled={saving} onClick={() => void save()}>
          {t("保存这些价格")}
        </button>
      </div>
      <p className="text-base-content/60 text-xs">{t("价格按厂商标价填写：每百万 tokens 的输入、输出美元价格，或按次计费的每次价格。")}</p>
      <div className="overflow-x-auto">
        <table className="table table-sm" data-testid="unpriced-models">
          <thead>
            <tr>
              <th>{t("模型")}</th>
              <th>{t("提供该模型的渠道")}</th>
              <th>{t("输入 $/1M")}</th>
              <th>{t("输出 $/1M")}</th>
              <th>{t("或按次 $")}</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => {
              const entry = entries[row.model] ?? blank;
              const perCall = entry.perCall !== "";
              return (
                <tr key={row.model} data-model={row.model}>
                  <td className="font-mono text-xs break-all">{row.model}</td>
                  <td>
                    <span className="flex flex-wrap gap-1">
                      {row.channels.map((channel) => (
                        <span
                          key={channel.id}
                          className={`badge badge-sm ${channel.enabled ? "badge-outline" : "badge-ghost opacity-60"}`}
                          title={channel.enabled ? undefined : t("渠道或该模型已停用")}
                        >
                          {channel.name}
                        </span>
                      ))}
                    </span>
                  </td>
                  {fields.map(([field, label]) => (
                    <td key={field}>
                      <input
                        className="input input-bordered input-xs w-24"
                        inputMode="decimal"
                        value={entry[field]}
                        disabled={field !== "perCall" && perCall}
                        aria-label={[row.model, label].join(" ")}
                        onChange={(event) => edit(row.model, field, event.target.value)}
                      />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <p className="text-base-content/60 text-sm">{t("共 {{total}} 个未定价模型", { total: props.models.length })}</p>
    </div>
  );
}

/** The island's one declaration (island-definition.ts): rendered by the prices tab of /setting, mounted by unpriced-models.island.tsx. */
export const unpricedModelsIsland = defineIsland("unpriced-models", UnpricedModels);
