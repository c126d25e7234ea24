/** @jsxImportSource react */
// The channel drawer's model multi-select: chosen models as removable chips, a searchable list
// of known names, buttons to fill the type's models, all models, the upstream's list (fetched
// through the gateway) or none, and custom names (comma separated; repeats refused).
import { useMemo, useState } from "react";
import type { IslandTranslate } from "../island-i18n.ts";

export type ModelPickerProps = {
  t: IslandTranslate;
  selected: string[];
  options: string[];
  typeModels: string[];
  fetching: boolean;
  /** What the last action said (a refusal of the form, a fetch's result), shown under the buttons. */
  notice?: { kind: "error" | "success"; text: string };
  onChange: (models: string[]) => void;
  onFetch: () => void;
  onError: (message: string) => void;
};

export function ModelPicker(props: ModelPickerProps) {
  const { t, selected } = props;
  const [search, setSearch] = useState("");
  const [custom, setCustom] = useState("");
  const chosen = useMemo(() => new Set(selected), [selected]);
  const visible = useMemo(() => {
    const all = [...new Set([...props.options, ...selected])].sort();
    const needle = search.trim().toLowerCase();
    return needle ? all.filter((model) => model.toLowerCase().includes(needle)) : all;
  }, [props.options, selected, search]);

  const toggle = (model: string) => props.onChange(chosen.has(model) ? selected.filter((item) => item !== model) : [...selected, model]);
  const addCustom = () => {
    const names = custom
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    if (names.length === 0) return;
    if (names.some((name) => chosen.has(name)) || new Set(names).size !== names.length) return props.onError(t("某些模型已存在！"));
    props.onChange([...selected, ...names]);
    setCustom("");
  };

  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{t("模型")}</legend>
      {selected.length === 0 ? <span className="text-base-content/60 text-xs">{t("尚未选择模型")}</span> : null}
      <ul className="flex flex-wrap gap-1" aria-label={t("已选模型")}>
        {selected.map((model) => (
          <li key={model} className="badge badge-sm badge-primary gap-1">
            {model}
            <button type="button" aria-label={t("移除 {{model}}", { model })} onClick={() => toggle(model)}>
              {"×"}
            </button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-1">
        <button type="button" className="btn btn-xs" onClick={() => props.onChange([...new Set([...selected, ...props.typeModels])])}>
          {t("填入相关模型")}
        </button>
        <button type="button" className="btn btn-xs" onClick={() => props.onChange([...new Set([...selected, ...props.options])])}>
          {t("填入所有模型")}
        </button>
        <button type="button" className="btn btn-xs" disabled={props.fetching} onClick={props.onFetch}>
          {props.fetching ? <span className="loading loading-spinner loading-xs" /> : null}
          {t("获取模型列表")}
        </button>
        <button type="button" className="btn btn-xs" onClick={() => props.onChange([])}>
          {t("清除所有模型")}
        </button>
      </div>
      {props.notice ? (
        <span
          role={props.notice.kind === "error" ? "alert" : "status"}
          className={`${props.notice.kind === "error" ? "text-error" : "text-success"} block text-sm`}
          data-models-notice
        >
          {props.notice.text}
        </span>
      ) : null}
      <input
        className="input input-bordered input-sm w-full"
        placeholder={t("搜索模型")}
        aria-label={t("搜索模型")}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <div className="border-base-300 grid max-h-40 grid-cols-1 gap-0.5 overflow-y-auto rounded border p-1 sm:grid-cols-2">
        {visible.map((model) => (
          <label key={model} className="label cursor-pointer justify-start gap-2 text-xs">
            <input type="checkbox" className="checkbox checkbox-xs" checked={chosen.has(model)} onChange={() => toggle(model)} />
            <span className="truncate">{model}</span>
          </label>
        ))}
      </div>
      <div className="join w-full">
        <input
          className="input input-bordered input-sm join-item w-full"
          placeholder={t("输入自定义模型名称，逗号分隔")}
          aria-label={t("自定义模型名称")}
          value={custom}
          onChange={(event) => setCustom(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              addCustom();
            }
          }}
        />
        <button type="button" className="btn btn-sm join-item" onClick={addCustom}>
          {t("填入")}
        </button>
      </div>
    </fieldset>
  );
}
