// Building blocks of the super admin's settings tabs. Every field is named by its option key and
// shows the live value as its default; the runtime (console-runtime/option-forms.ts) sends only
// what changed. Secret options are never shown back: their fields start empty and are sent only
// when filled.
import type { Children } from "@kitajs/html";
import { definitionOf, type OptionKey } from "../../../services/options/option-registry.ts";
import { optionText } from "../../../services/options/options.ts";
import type { PageContext } from "../../page-context.ts";

type FieldProps = { context: PageContext; name: OptionKey; label: string; hint?: string; placeholder?: string };

function Label(props: { text: string; hint?: string }) {
  return (
    <span class="label-text mb-1 block text-sm">
      <span safe>{props.text}</span>
      {props.hint ? (
        <span class="text-base-content/60 block text-xs" safe>
          {props.hint}
        </span>
      ) : (
        ""
      )}
    </span>
  );
}

/** A section of options saved together with its button. */
export function OptionSection(props: { context: PageContext; title: string; submit?: string; children?: Children; id?: string }) {
  const { t } = props.context;
  const id = props.id ?? `section-${props.title}`;
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby={id}>
      <form class="card-body gap-3" data-option-form data-unchanged-message={t("你似乎并没有修改什么")}>
        <h2 id={id} class="card-title text-lg" safe>
          {props.title}
        </h2>
        {props.children}
        <button type="submit" class="btn btn-primary mt-1 w-fit" safe>
          {props.submit ?? t("保存")}
        </button>
      </form>
    </section>
  );
}

/** A grid of fields inside a section. */
export function FieldGrid(props: { children?: Children }) {
  return <div class="grid gap-3 md:grid-cols-2 xl:grid-cols-3">{props.children}</div>;
}

export function OptionInput(props: FieldProps & { type?: "text" | "number" | "url" | "email" }) {
  const secret = definitionOf(props.name).secret === true;
  const { t } = props.context;
  return (
    <label class="form-control w-full">
      <Label text={props.label} hint={props.hint} />
      <input
        class="input input-bordered w-full"
        type={secret ? "password" : (props.type ?? "text")}
        name={props.name}
        value={secret ? "" : optionText(props.name)}
        placeholder={secret ? t("敏感信息不会发送到前端显示") : props.placeholder}
        autocomplete="off"
        step={props.type === "number" ? "any" : undefined}
        data-secret={secret ? "" : undefined}
      />
    </label>
  );
}

/** JSON options are shown indented; unchanged, the text is not sent back, so nothing is rewritten. */
function shownText(name: OptionKey, json: boolean | undefined): string {
  const value = optionText(name);
  if (!json) return value;
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

/**
 * A button that saves one value into a field's option at once (one click; the same PUT as the
 * section's save), e.g. the spec's default chat links that a new install starts without.
 */
function PresetButton(props: { name: OptionKey; label: string; value: string }) {
  return (
    <button type="button" class="btn btn-sm btn-outline w-fit" data-option-preset={props.name} data-preset-value={props.value} safe>
      {props.label}
    </button>
  );
}

export function OptionTextarea(
  props: FieldProps & { rows?: number; json?: boolean; jsonMessage?: string; preset?: { label: string; value: string } },
) {
  const { t } = props.context;
  const field = (
    <label class="form-control w-full">
      <Label text={props.label} hint={props.hint} />
      <textarea
        class={`textarea textarea-bordered w-full ${props.json ? "font-mono text-sm" : ""}`}
        name={props.name}
        rows={String(props.rows ?? 6)}
        placeholder={props.placeholder}
        data-json-message={props.json ? t(props.jsonMessage ?? "不是合法的 JSON 字符串") : undefined}
        spellcheck="false"
        safe
      >
        {shownText(props.name, props.json)}
      </textarea>
    </label>
  );
  if (!props.preset) return field;
  return (
    <div class="flex flex-col gap-2">
      {field}
      <PresetButton name={props.name} label={props.preset.label} value={props.preset.value} />
    </div>
  );
}

export function OptionSelect(props: FieldProps & { choices: { value: string; label: string }[] }) {
  const current = optionText(props.name);
  return (
    <label class="form-control w-full">
      <Label text={props.label} hint={props.hint} />
      <select class="select select-bordered w-full" name={props.name}>
        {props.choices.map((choice) => (
          <option value={choice.value} selected={choice.value === current} safe>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A yes/no option saved with its section. */
export function OptionToggle(props: FieldProps) {
  return (
    <label class="flex cursor-pointer items-center gap-3">
      <input type="checkbox" class="toggle toggle-primary" name={props.name} checked={optionText(props.name) === "true"} />
      <span class="label-text" safe>
        {props.label}
      </span>
    </label>
  );
}

/** A yes/no option saved the moment it is flipped, as the system tab's switches are. */
export function OptionSwitch(props: FieldProps & { confirmOff?: string }) {
  return (
    <label class="flex cursor-pointer items-center gap-3">
      <input
        type="checkbox"
        class="toggle toggle-primary"
        name={props.name}
        checked={optionText(props.name) === "true"}
        data-option-switch
        data-confirm-off={props.confirmOff}
      />
      <span class="label-text" safe>
        {props.label}
      </span>
    </label>
  );
}

/** A group of immediate switches (no save button). */
export function SwitchSection(props: { title: string; id: string; children?: Children }) {
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby={props.id}>
      <div class="card-body gap-3">
        <h2 id={props.id} class="card-title text-lg" safe>
          {props.title}
        </h2>
        <div class="grid gap-3 md:grid-cols-2">{props.children}</div>
      </div>
    </section>
  );
}
