/** @jsxImportSource react */
// The visual pricing editor of the model settings tab (spec §5 Settings, §9 page size 10): one row
// per model with its fixed price, ratio and completion ratio. Non-numbers are refused (请输入数字),
// a new model must have a new name (模型名称已存在), and a fixed price disables the ratios: such a
// model is billed per call, so its ratios are not saved. Saving sends only the options that
// changed; the option rules on the server check them again.
import { useMemo, useState } from "react";
import { apiCall } from "../console/api-client.ts";
import { showToast } from "../console/toasts.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { moneyTranslator } from "../shared/money-translator.ts";
import { buildPricingOptions, pricingRows, type PricingRow } from "./pricing-rows.ts";

export type PricingEditorProps = {
  language: Language;
  modelPrice: Record<string, number>;
  modelRatio: Record<string, number>;
  completionRatio: Record<string, number>;
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
      <input className="input input-bordered input-sm w-48" placeholder={t("模型名称")} aria-label={t("新模型名称")} value={row.name} onChange={(e) => set("name", e.target.value)} />
      <input className="input input-bordered input-sm w-28" placeholder={t("固定价格")} aria-label={t("新模型固定价格")} value={row.price} onChange={(e) => set("price", e.target.value)} />
      <input className="input input-bordered input-sm w-28" placeholder={t("模型倍率")} aria-label={t("新模型倍率")} value={row.ratio} disabled={row.price !== ""} onChange={(e) => set("ratio", e.target.value)} />
      <input className="input input-bordered input-sm w-28" placeholder={t("补全倍率")} aria-label={t("新模型补全倍率")} value={row.completion} disabled={row.price !== ""} onChange={(e) => set("completion", e.target.value)} />
      <button type="submit" className="btn btn-sm">{t("添加模型")}</button>
    </form>
  );
}

function PriceRow(props: { row: PricingRow; language: Language; onEdit: (name: string, field: Field, value: string) => void; onDelete: (name: string) => void }) {
  const t = moneyTranslator(props.language);
  const { row } = props;
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
    <tr>
      <td className="font-mono text-xs">{row.name}</td>
      {cells}
      <td>
        <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => props.onDelete(row.name)}>
          {t("删除")}
        </button>
      </td>
    </tr>
  );
}

export function PricingEditor(props: PricingEditorProps) {
  const t = moneyTranslator(props.language);
  const [rows, setRows] = useState<PricingRow[]>(() => pricingRows(props.modelPrice, props.modelRatio, props.completionRatio));
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [saving, setSaving] = useState(false);

  const filtered = useMemo(() => rows.filter((row) => row.name.toLowerCase().includes(search.trim().toLowerCase())), [rows, search]);
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
    <PriceRow key={row.name} row={row} language={props.language} onEdit={edit} onDelete={(name) => setRows((all) => all.filter((other) => other.name !== name))} />
  ));

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <input
          className="input input-bordered input-sm w-64"
          type="search"
          placeholder={t("搜索模型名称")}
          aria-label={t("搜索模型名称")}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
        <button type="button" className="btn btn-primary btn-sm" disabled={saving} onClick={() => void save()}>{t("应用更改")}</button>
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
              <th>{t("操作")}</th>
            </tr>
          </thead>
          <tbody>
            {visibleRows}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between text-sm">
        <span className="text-base-content/60">{t("共 {{total}} 条", { total: filtered.length })}</span>
        <div className="join">
          <button type="button" className="join-item btn btn-sm" disabled={current <= 1} onClick={() => setPage(current - 1)} aria-label={t("上一页")}>
            {"‹"}
          </button>
          <span className="join-item btn btn-sm btn-disabled">{`${current} / ${pages}`}</span>
          <button type="button" className="join-item btn btn-sm" disabled={current >= pages} onClick={() => setPage(current + 1)} aria-label={t("下一页")}>
            {"›"}
          </button>
        </div>
      </div>
    </div>
  );
}
