// A quota field in the currency the site displays (issue 17): when the site shows amounts in
// dollars, people type dollars and the raw units the API stores are shown beside the field
// (and sent, from a hidden input kept in step by console-runtime/quota-fields.ts). When it shows
// raw units, the field takes raw units and says what one dollar is worth.
import type { Translate } from "../../i18n/i18n.ts";
import { formatAmount, type MoneyDisplay } from "../format.ts";

export type QuotaFieldProps = {
  t: Translate;
  status: MoneyDisplay;
  /** Name of the raw value in the submitted JSON, and id stem of the inputs. */
  name: string;
  id: string;
  label: string;
  /** Raw units; undefined leaves the field empty. */
  value: number | undefined;
  min?: number;
  placeholder?: string;
  /** Preset dollar amounts shown as buttons under the field. */
  presets?: number[];
};

export function QuotaField(props: QuotaFieldProps) {
  const { t, status, name, id, label, value } = props;
  const perUnit = status.quota_per_unit;
  const inCurrency = status.display_in_currency && perUnit > 0;
  const raw = value === undefined ? "" : String(value);
  const presets = props.presets ?? [];
  return (
    <div class="form-control w-full" data-quota-field>
      <label class="label-text mb-1 block text-sm" for={inCurrency ? `${id}-money` : id} safe>
        {label}
      </label>
      {inCurrency ? (
        <>
          <label class="input input-bordered flex w-full items-center gap-2">
            <span class="text-base-content/60">{"$"}</span>
            <input
              id={`${id}-money`}
              type="number"
              step="any"
              min={props.min === undefined ? undefined : String(props.min / perUnit)}
              class="grow"
              value={value === undefined ? "" : formatAmount(value / perUnit, 2)}
              placeholder={props.placeholder}
              data-quota-for={`#${id}`}
              data-quota-per-unit={String(perUnit)}
            />
          </label>
          <input type="hidden" id={id} name={name} value={raw} data-json-type="number" />
          <span class="text-base-content/60 mt-1 text-xs">
            <span safe>{t("原始额度")}</span>
            {": "}
            <span class="font-mono" data-quota-units={`#${id}`} safe>
              {raw === "" ? "0" : raw}
            </span>
          </span>
        </>
      ) : (
        <>
          <input
            id={id}
            name={name}
            type="number"
            step="1"
            min={props.min === undefined ? undefined : String(props.min)}
            class="input input-bordered w-full"
            data-json-type="number"
            value={raw}
            placeholder={props.placeholder}
          />
          {perUnit > 0 ? (
            <span class="text-base-content/60 mt-1 text-xs" safe>
              {t("额度单位：{{units}} 额度 = 1 美元", { units: perUnit })}
            </span>
          ) : (
            ""
          )}
        </>
      )}
      {presets.length > 0 ? (
        <div class="mt-1 flex flex-wrap gap-1">
          {presets.map((dollars) => (
            <button
              type="button"
              class="btn btn-xs"
              data-set-value={inCurrency ? String(dollars) : String(Math.round(dollars * perUnit))}
              data-target={inCurrency ? `#${id}-money` : `#${id}`}
              safe
            >
              {`$${dollars}`}
            </button>
          ))}
        </div>
      ) : (
        ""
      )}
    </div>
  );
}
