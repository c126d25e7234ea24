// The request inspector's window (issue 27) in the token drawer and the user edit form: until
// when each call's request and answer are kept, at most 7 days ahead, or "off" (0). Admins only;
// the server applies the rules (capture-window.ts) and answers with their messages.
import { nowSeconds } from "../../clock.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { captureSwitchOn } from "../../services/captures/capture-window.ts";
import { optionNumber } from "../../services/options/options.ts";
import { DateTimeField } from "./date-time-field.tsx";

const presets: [string, number][] = [
  ["一小时", 3600],
  ["一天", 86400],
  ["七天", 7 * 86400],
];

export function CaptureField(props: { t: Translate; id: string; captureUntil: number | undefined }) {
  const { t, id } = props;
  const open = (props.captureUntil ?? 0) > nowSeconds();
  return (
    <fieldset class="form-control w-full" aria-label={t("请求记录")}>
      <label class="label-text mb-1 block text-sm" for={id} safe>
        {t("请求记录截止时间")}
      </label>
      <DateTimeField
        t={t}
        id={id}
        name="capture_until"
        label={t("请求记录截止时间")}
        unix={open ? props.captureUntil : undefined}
        attributes={{ "data-json-type": "datetime" }}
      />
      <div class="mt-1 flex flex-wrap gap-1">
        {presets.map(([label, seconds]) => (
          <button type="button" class="btn btn-xs" data-set-time={String(seconds)} data-target={`#${id}`} safe>
            {t(label)}
          </button>
        ))}
        <button type="button" class="btn btn-xs" data-set-value="0" data-target={`#${id}`} safe>
          {t("关闭")}
        </button>
      </div>
      <p class="text-base-content/60 mt-1 text-xs" safe>
        {captureSwitchOn()
          ? t("开启期间每次调用的请求和响应内容（各最多 256 KB，不含凭据）会保存 {{days}} 天，可在日志详情中查看", {
              days: optionNumber("RequestCaptureRetentionDays"),
            })
          : t("请求记录功能已在系统设置中关闭，请先开启")}
      </p>
    </fieldset>
  );
}
