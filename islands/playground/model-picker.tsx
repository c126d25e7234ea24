/** @jsxImportSource react */
// A model picker with search: a button showing the model, and a list filtered as one types
// (arrow keys and Enter to choose, Escape to close). Only models the chosen group can call are
// listed; their price is shown beside them, and a model without a price is marked (the relay
// refuses it, or bills it at the site's default, as the operator chose).
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { IslandTranslate } from "../island-i18n.ts";
import { matchesModelQuery } from "../shared/model-search.ts";

type Props = {
  t: IslandTranslate;
  label: string;
  value: string;
  models: string[];
  /** A short price text per model ("$0.15 / $0.60 per 1M"), when known. */
  priceOf: (model: string) => string;
  /** Models with no price of their own. */
  unpriced: (model: string) => boolean;
  /** What calling an unpriced model does here (the mark's tooltip). */
  unpricedHint: string;
  onChange: (model: string) => void;
};

export function ModelPicker(props: Props) {
  const { t, value, models } = props;
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const search = useRef<HTMLInputElement>(null);
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;
  const matches = useMemo(() => models.filter((model) => matchesModelQuery(model, query)), [models, query]);

  useEffect(() => {
    if (!open) return;
    const close = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, [open]);
  // Opening the list (a click on the button) puts the keys in its search field.
  useEffect(() => {
    if (open) search.current?.focus();
  }, [open]);

  const choose = (model: string) => {
    props.onChange(model);
    setOpen(false);
    setQuery("");
  };

  return (
    <div className="relative w-full min-w-0" ref={root}>
      <button
        type="button"
        className="select select-bordered select-sm w-full min-w-0 text-left"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={props.label}
        data-model-picker
        onClick={() => {
          setOpen(!open);
          setActive(Math.max(0, models.indexOf(value)));
        }}
      >
        <span className="truncate">{value || t("选择模型")}</span>
        {value && props.unpriced(value) ? (
          <span className="badge badge-warning badge-xs ml-1 shrink-0" title={props.unpricedHint}>
            {t("未定价")}
          </span>
        ) : null}
      </button>
      {open ? (
        <div className="bg-base-100 border-base-300 absolute z-30 mt-1 w-full min-w-64 rounded-box border p-2 shadow-lg">
          <input
            ref={search}
            className="input input-bordered input-sm w-full"
            placeholder={t("按名称搜索模型")}
            aria-label={t("按名称搜索模型")}
            aria-controls={listId}
            aria-activedescendant={matches[active] ? optionId(active) : undefined}
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
            }}
            onKeyDown={(event) => {
              if (event.key === "ArrowDown") setActive(Math.min(matches.length - 1, active + 1));
              else if (event.key === "ArrowUp") setActive(Math.max(0, active - 1));
              else if (event.key === "Enter" && matches[active]) choose(matches[active]!);
              else if (event.key === "Escape") setOpen(false);
              else return;
              event.preventDefault();
            }}
          />
          {matches.length === 0 ? <p className="text-base-content/60 px-2 py-3 text-sm">{t("没有匹配的模型")}</p> : null}
          <div id={listId} role="listbox" aria-label={props.label} className="mt-2 max-h-72 overflow-y-auto">
            {matches.map((model, index) => (
              <div
                key={model}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={model === value}
                data-model={model}
                className={`flex cursor-pointer items-center justify-between gap-3 rounded px-2 py-1.5 text-sm ${index === active ? "bg-base-200" : ""} ${model === value ? "font-semibold" : ""}`}
                onMouseEnter={() => setActive(index)}
                onClick={() => choose(model)}
                onKeyDown={(event) => {
                  if (event.key !== "Enter" && event.key !== " ") return;
                  event.preventDefault();
                  choose(model);
                }}
              >
                <span className="truncate">{model}</span>
                {props.unpriced(model) ? (
                  <span className="badge badge-warning badge-xs shrink-0" title={props.unpricedHint} data-unpriced>
                    {t("未定价")}
                  </span>
                ) : (
                  <span className="text-base-content/50 shrink-0 text-xs" title={t("每百万 tokens 的输入 / 输出价格")}>
                    {props.priceOf(model)}
                  </span>
                )}
              </div>
            ))}
          </div>
        </div>
      ) : null}
    </div>
  );
}
