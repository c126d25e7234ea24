/** @jsxImportSource react */
// The visual pricing editor of the model settings tab (10 models a page): one row
// per model with its fixed price, ratio and completion ratio. Non-numbers are refused (请输入数字),
// a new model must have a new name (模型名称已存在), and a fixed price disables the ratios: such a
// model is billed per call, so its ratios are not saved. A ratio model may have prices by prompt
// size (tiers: above N prompt tokens, the whole call at other ratios), edited under its row.
// Saving sends only the options that changed; the option rules on the server check them again.
import { Fragment, useMemo, useState } from "react";
import { apiCall } from "../../console-runtime/api-client.ts";
import { showToast } from "../../console-runtime/toasts.ts";
import type { Language } from "../../src/i18n/languages.ts";
import type { TierOption } from "../../src/services/pricing/price-list.ts";
import { matchesModelQuery } from "../shared/model-search.ts";
import { moneyTranslator } from "../shared/money-translator.ts";
import { pricingTranslator } from "../shared/pricing-translator.ts";
import { buildPricingOptions, emptyTierRow, pricingRows, tierProblem, type PricingRow, type TierRow } from "./pricing-rows.ts";
import { defineIsland } from "../island-definition.ts";

export type PricingEditorProps = {
  language: Language;
  modelPrice: Record<string, number>;
  modelRatio: Record<string, number>;
  completionRatio: Record<string, number>;
  modelPriceTiers?: Record<string, TierOption[]>;
  builtinTiers?: Record<string, TierOption[]>;
};

const pageSize = 10;
const numeric = /^(\d+\.?\d*|\.\d+)?$/;

type Field = "price" | "ratio" | "completion";

function NewModelForm(props: { language: Language; onAdd: (row: PricingRow) => boolean }) {
  const t = moneyTranslator(props.language);
  const [row, setRow] = useState<PricingRow>({ name: "", price: "", ratio: "", completion: "" });
  const set = (field: keyof PricingRow, value: string) => {
    if (field !== "name" && !numeric.test(value)) return showToast(t("请输入数字"), "error");
    setRow({ ...row, [field]: value });
  };
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (props.onAdd({ ...row, name: row.name.trim() })) setRow({ name: "", price: "", ratio: "", completion: "" });
      }}
    >
      <input
        className="input input-bordered input-sm w-48"
        placeholder={t("模型名称")}
        aria-label={t("新模型名称")}
        value={row.name}
        onChange={(e) => set("name", e.target.value)}
      />
      <input
        className="input input-bordered input-sm w-28"
        placeholder={t("固定价格")}
        aria-label={t("新模型固定价格")}
        value={row.price}
        onChange={(e) => set("price", e.target.value)}
      />
      <input
        className="input input-bordered input-sm w-28"
        placeholder={t("模型倍率")}
        aria-label={t("新模型倍率")}
        value={row.ratio}
        disabled={row.price !== ""}
        onChange={(e) => set("ratio", e.target.value)}
      />
      <input
        className="input input-bordered input-sm w-28"
        placeholder={t("补全倍率")}
        aria-label={t("新模型补全倍率")}
        value={row.completion}
        disabled={row.price !== ""}
        onChange={(e) => set("completion", e.target.value)}
      />
      <button type="submit" className="btn btn-sm">
        {t("添加模型")}
      </button>
    </form>
  );
}

const tierFields = ["above", "ratio", "completion", "cache", "createCache"] as const;

/** The prompt-size tiers of one model, edited in place under its row. */
function TierEditor(props: { row: PricingRow; language: Language; onChange: (tiers: TierRow[]) => void }) {
  const t = pricingTranslator(props.language);
  const tiers = props.row.tiers ?? [];
  const labels: Record<(typeof tierFields)[number], string> = {
    above: t("提示超过（tokens）"),
    ratio: t("模型倍率"),
    completion: t("补全倍率"),
    cache: t("缓存读取倍率"),
    createCache: t("缓存写入倍率"),
  };
  const edit = (index: number, field: keyof TierRow, value: string) => {
    if (!numeric.test(value.trim())) return showToast(t("请输入数字"), "error");
    props.onChange(tiers.map((tier, at) => (at === index ? { ...tier, [field]: value.trim() } : tier)));
  };
  return (
    <div className="bg-base-200/50 rounded-box flex flex-col gap-2 p-2" data-testid={`tiers-${props.row.name}`}>
      <p className="text-base-content/70 text-xs">
        {t("提示超过设定的 tokens 数时，整次调用按该档的倍率计费；留空的倍率沿用模型本身的。")}
      </p>
      {tiers.map((tier, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a tier has no identity of its own; its place in the list is what the operator edits
        <fieldset key={index} className="flex flex-wrap items-end gap-2" aria-label={t("第 {{index}} 档", { index: index + 1 })}>
          {tierFields.map((field) => (
            <label key={field} className="form-control">
              <span className="label-text text-xs">{labels[field]}</span>
              <input
                className="input input-bordered input-xs w-28"
                inputMode="decimal"
                value={tier[field]}
                aria-label={[props.row.name, t("第 {{index}} 档", { index: index + 1 }), labels[field]].join(" ")}
                onChange={(event) => edit(index, field, event.target.value)}
              />
            </label>
          ))}
          <button
            type="button"
            className="btn btn-ghost btn-xs text-error"
            onClick={() => props.onChange(tiers.filter((_, at) => at !== index))}
          >
            {t("删除此档")}
          </button>
        </fieldset>
      ))}
      <button type="button" className="btn btn-xs w-fit" onClick={() => props.onChange([...tiers, emptyTierRow()])}>
        {t("添加价格分档")}
      </button>
    </div>
  );
}

function PriceRow(props: {
  row: PricingRow;
  language: Language;
  onEdit: (name: string, field: Field, value: string) => void;
  onTiers: (name: string, tiers: TierRow[]) => void;
  onDelete: (name: string) => void;
}) {
  const t = moneyTranslator(props.language);
  const tp = pricingTranslator(props.language);
  const [open, setOpen] = useState(false);
  const { row } = props;
  const tierCount = row.tiers?.length ?? 0;
  const labels: Record<Field, string> = { price: t("固定价格"), ratio: t("模型倍率"), completion: t("补全倍率") };
  const cells = (["price", "ratio", "completion"] as const).map((field) => (
    <td key={field}>
      <input
        className="input input-bordered input-xs w-24"
        value={row[field]}
        aria-label={`${row.name} ${labels[field]}`}
        disabled={field !== "price" && row.price !== ""}
        onChange={(event) => props.onEdit(row.name, field, event.target.value)}
      />
    </td>
  ));
  return (
    <Fragment>
      <tr>
        <td className="font-mono text-xs">{row.name}</td>
        {cells}
        <td>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            aria-expanded={open}
            disabled={row.price !== ""}
            onClick={() => setOpen(!open)}
          >
            {tierCount > 0 ? tp("{{count}} 档", { count: tierCount }) : tp("按提示长度分档")}
          </button>
        </td>
        <td>
          <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => props.onDelete(row.name)}>
            {t("删除")}
          </button>
        </td>
      </tr>
      {open && row.price === "" ? (
        <tr>
          <td colSpan={6}>
            <TierEditor row={row} language={props.language} onChange={(tiers) => props.onTiers(row.name, tiers)} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

export function PricingEditor(props: PricingEditorProps) {
  const t = moneyTranslator(props.language);
  const tp = pricingTranslator(props.language);
  const [rows, setRows] = useState<PricingRow[]>(() =>
    pricingRows(props.modelPrice, props.modelRatio, props.completionRatio, {
      modelPriceTiers: props.modelPriceTiers,
      builtinTiers: props.builtinTiers,
    }),
  );
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [saving, setSaving] = useState(false);

  const filtered = useMemo(() => rows.filter((row) => matchesModelQuery(row.name, search)), [rows, search]);
  const pages = Math.max(1, Math.ceil(filtered.length / pageSize));
  const current = Math.min(page, pages);
  const visible = filtered.slice((current - 1) * pageSize, current * pageSize);

  const edit = (name: string, field: Field, value: string) => {
    if (!numeric.test(value.trim())) return showToast(t("请输入数字"), "error");
    setRows((all) => all.map((row) => (row.name === name ? { ...row, [field]: value.trim() } : row)));
  };

  const add = (row: PricingRow): boolean => {
    if (!row.name) {
      showToast(t("请输入模型名称"), "error");
      return false;
    }
    if (rows.some((existing) => existing.name === row.name)) {
      showToast(t("模型名称已存在"), "error");
      return false;
    }
    setRows((all) => [row, ...all]);
    setSearch("");
    setPage(1);
    return true;
  };

  const save = async () => {
    for (const row of rows) {
      if (row.price !== "") continue;
      for (const tier of row.tiers ?? []) {
        const problem = tierProblem(tier);
        if (problem) {
          return showToast(
            problem === "above"
              ? tp("{{model}} 的分档起点须为正整数", { model: row.name })
              : tp("{{model}} 的分档须填写模型倍率", { model: row.name }),
            "error",
          );
        }
      }
    }
    const changes = buildPricingOptions(rows, props);
    if (changes.length === 0) return showToast(t("你似乎并没有修改什么"), "warning");
    setSaving(true);
    try {
      await apiCall("PUT", "/api/option/", changes, false, t("保存失败，请重试"));
      sessionStorage.setItem("pending-toast", t("保存成功"));
      window.location.reload();
    } catch {
      setSaving(false);
    }
  };

  const visibleRows = visible.map((row) => (
    <PriceRow
      key={row.name}
      row={row}
      language={props.language}
      onEdit={edit}
      onTiers={(name, tiers) => setRows((all) => all.map((other) => (other.name === name ? { ...other, tiers } : other)))}
      onDelete={(name) => setRows((all) => all.filter((other) => other.name !== name))}
    />
  ));

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <input
          className="input input-bordered input-sm w-64"
          type="search"
          placeholder={tp("按名称的任意部分搜索")}
          aria-label={t("搜索模型名称")}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
        <button type="button" className="btn btn-primary btn-sm" disabled={saving} onClick={() => void save()}>
          {t("应用更改")}
        </button>
      </div>
      <NewModelForm language={props.language} onAdd={add} />
      <div className="overflow-x-auto">
        <table className="table table-sm" data-testid="pricing-table">
          <thead>
            <tr>
              <th>{t("模型名称")}</th>
              <th>{t("固定价格")}</th>
              <th>{t("模型倍率")}</th>
              <th>{t("补全倍率")}</th>
              <th>{tp("价格分档")}</th>
              <th>{t("操作")}</th>
            </tr>
          </thead>
          <tbody>{visibleRows}</tbody>
        </table>
      </div>
      <div className="flex items-center justify-between text-sm">
        <span className="text-base-content/60">{t("共 {{total}} 条", { total: filtered.length })}</span>
        <div className="join">
          <button
            type="button"
            className="join-item btn btn-sm"
            disabled={current <= 1}
            onClick={() => setPage(current - 1)}
            aria-label={t("上一页")}
          >
            {"‹"}
          </button>
          <span className="join-item btn btn-sm btn-disabled">{`${current} / ${pages}`}</span>
          <button
            type="button"
            className="join-item btn btn-sm"
            disabled={current >= pages}
            onClick={() => setPage(current + 1)}
            aria-label={t("下一页")}
          >
            {"›"}
          </button>
        </div>
      </div>
    </div>
  );
}

/** The island's one declaration (island-definition.ts): rendered by the model tab of /setting, mounted by pricing-editor.island.tsx. */
export const pricingEditorIsland = defineIsland("pricing-editor", PricingEditor);
