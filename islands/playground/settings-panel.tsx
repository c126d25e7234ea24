/** @jsxImportSource react */
// The parameters of the next request (the panel on the left): group, temperature (0.1 to 1
// in steps of 0.1), top_p, max tokens, stop sequences, presence and frequency penalties,
// streaming and reasoning effort. Optional parameters are sent only when switched on, so a model
// that rejects one is not sent it by default.
import type { ReactNode } from "react";
import type { IslandTranslate } from "../island-i18n.ts";
import type { Parameters, ReasoningEffort } from "./conversation.ts";

export type GroupChoice = { name: string; description: string; ratio: number };

type Props = {
  t: IslandTranslate;
  groups: GroupChoice[];
  group: string;
  onGroup: (group: string) => void;
  parameters: Parameters;
  onParameters: (change: Partial<Parameters>) => void;
  onClear: () => void;
  busy: boolean;
};

function Field(props: { label: string; children: ReactNode; hint?: string }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: every caller passes exactly one control as the children, which the label wraps and so names
    <label className="flex w-full flex-col gap-1">
      <span className="text-sm">{props.label}</span>
      {props.children}
      {props.hint ? <span className="text-base-content/50 text-xs">{props.hint}</span> : null}
    </label>
  );
}

/** A slider with a switch: off means the parameter is not sent. */
function OptionalSlider(props: {
  label: string;
  enabled: boolean;
  value: number;
  min: number;
  max: number;
  step: number;
  onEnabled: (on: boolean) => void;
  onValue: (value: number) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between gap-2 text-sm">
        <label className="flex cursor-pointer items-center gap-2">
          <input
            type="checkbox"
            className="toggle toggle-xs"
            checked={props.enabled}
            onChange={(event) => props.onEnabled(event.target.checked)}
            aria-label={props.label}
          />
          <span>{props.label}</span>
        </label>
        <span className={`tabular-nums ${props.enabled ? "" : "text-base-content/40"}`}>{props.value.toFixed(2)}</span>
      </div>
      <input
        type="range"
        className={`range range-xs ${props.enabled ? "range-primary" : "opacity-40"}`}
        min={props.min}
        max={props.max}
        step={props.step}
        value={props.value}
        disabled={!props.enabled}
        aria-label={props.label}
        onChange={(event) => props.onValue(Number(event.target.value))}
      />
    </div>
  );
}

export function SettingsPanel(props: Props) {
  const { t, parameters: p, onParameters: set } = props;
  const efforts: { value: ReasoningEffort; label: string }[] = [
    { value: "", label: t("不发送") },
    { value: "low", label: t("低强度") },
    { value: "medium", label: t("中强度") },
    { value: "high", label: t("高强度") },
  ];
  return (
    <div className="flex flex-col gap-4">
      <Field label={t("计费分组")}>
        <select
          className="select select-bordered select-sm w-full"
          value={props.group}
          onChange={(event) => props.onGroup(event.target.value)}
          aria-label={t("计费分组")}
        >
          {props.groups.map((group) => (
            <option key={group.name} value={group.name}>
              {group.description ? `${group.name} · ${group.description}` : group.name} (×{group.ratio})
            </option>
          ))}
        </select>
      </Field>
      <div className="flex flex-col gap-1">
        <div className="flex justify-between text-sm">
          <span>{t("温度")}</span>
          <span className="tabular-nums">{p.temperature.toFixed(1)}</span>
        </div>
        <input
          type="range"
          min={0.1}
          max={1}
          step={0.1}
          className="range range-primary range-xs"
          value={p.temperature}
          aria-label={t("温度")}
          onChange={(event) => set({ temperature: Number(event.target.value) })}
        />
      </div>
      <OptionalSlider
        label="top_p"
        enabled={p.topPEnabled}
        value={p.topP}
        min={0}
        max={1}
        step={0.05}
        onEnabled={(on) => set({ topPEnabled: on })}
        onValue={(value) => set({ topP: value })}
      />
      <OptionalSlider
        label={t("存在惩罚")}
        enabled={p.presenceEnabled}
        value={p.presencePenalty}
        min={-2}
        max={2}
        step={0.1}
        onEnabled={(on) => set({ presenceEnabled: on })}
        onValue={(value) => set({ presencePenalty: value })}
      />
      <OptionalSlider
        label={t("频率惩罚")}
        enabled={p.frequencyEnabled}
        value={p.frequencyPenalty}
        min={-2}
        max={2}
        step={0.1}
        onEnabled={(on) => set({ frequencyEnabled: on })}
        onValue={(value) => set({ frequencyPenalty: value })}
      />
      <Field label={t("最大令牌数（0 表示不限制）")}>
        <input
          type="number"
          min={0}
          className="input input-bordered input-sm w-full"
          value={p.maxTokens}
          onChange={(event) => set({ maxTokens: Math.max(0, Math.floor(Number(event.target.value) || 0)) })}
        />
      </Field>
      <Field label={t("停止序列")} hint={t("每行一个，最多 4 个")}>
        <textarea
          className="textarea textarea-bordered textarea-sm h-16 min-h-0 w-full"
          rows={2}
          value={p.stop}
          onChange={(event) => set({ stop: event.target.value })}
        />
      </Field>
      <Field label={t("推理强度")}>
        <select
          className="select select-bordered select-sm w-full"
          value={p.reasoningEffort}
          onChange={(event) => set({ reasoningEffort: event.target.value as ReasoningEffort })}
        >
          {efforts.map((effort) => (
            <option key={effort.value} value={effort.value}>
              {effort.label}
            </option>
          ))}
        </select>
      </Field>
      <label className="flex cursor-pointer items-center justify-between text-sm">
        <span>{t("流式输出")}</span>
        <input
          type="checkbox"
          className="toggle toggle-sm"
          checked={p.stream}
          onChange={(event) => set({ stream: event.target.checked })}
          aria-label={t("流式输出")}
        />
      </label>
      <button type="button" className="btn btn-sm" onClick={props.onClear}>
        {t("清除上下文")}
      </button>
    </div>
  );
}
