/** @jsxImportSource react */
// Plain inputs of the channel drawer: a labelled text field, a JSON field with its template,
// and the group chips. Kept apart so the drawer itself reads as the form it is.
import type { ReactNode } from "react";
import type { IslandTranslate } from "../island-i18n.ts";

/** A refusal of the server about one field, shown beside it. */
export function FieldError(props: { message?: string }) {
  return props.message ? (
    <span role="alert" className="text-error mt-1 block text-sm">
      {props.message}
    </span>
  ) : null;
}

export function Field(props: { label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: every caller passes exactly one control as the children, which the label wraps and so names
    <label className="form-control w-full" data-invalid={props.error ? "" : undefined}>
      <span className="label-text mb-1 block text-sm">{props.label}</span>
      {props.children}
      {props.hint ? <span className="text-base-content/60 mt-1 block text-xs">{props.hint}</span> : null}
      <FieldError message={props.error} />
    </label>
  );
}

export function JsonField(props: {
  t: IslandTranslate;
  label: string;
  value: string;
  template: string;
  error?: string;
  onChange: (value: string) => void;
}) {
  const { t } = props;
  return (
    <div className="form-control w-full" data-invalid={props.error ? "" : undefined}>
      <div className="mb-1 flex items-center justify-between">
        <span className="label-text text-sm">{props.label}</span>
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => props.onChange(props.template)}>
          {t("填入模板")}
        </button>
      </div>
      <textarea
        className="textarea textarea-bordered w-full font-mono text-xs"
        rows={3}
        aria-label={props.label}
        aria-invalid={props.error ? true : undefined}
        placeholder={props.template}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
      />
      <FieldError message={props.error} />
    </div>
  );
}

export function GroupPicker(props: {
  t: IslandTranslate;
  groups: string[];
  selected: string[];
  error?: string;
  onChange: (groups: string[]) => void;
}) {
  const { t, selected } = props;
  const all = [...new Set([...props.groups, ...selected])];
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">{t("分组")}</legend>
      <div className="flex flex-wrap gap-2">
        {all.map((group) => (
          <label key={group} className="label cursor-pointer gap-1 text-sm">
            <input
              type="checkbox"
              className="checkbox checkbox-sm"
              checked={selected.includes(group)}
              onChange={() => props.onChange(selected.includes(group) ? selected.filter((item) => item !== group) : [...selected, group])}
            />
            {group}
          </label>
        ))}
      </div>
      <FieldError message={props.error} />
    </fieldset>
  );
}
