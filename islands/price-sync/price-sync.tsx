/** @jsxImportSource react */
// Refreshing prices from a price document at a URL (Switchyard's price list, or new-api's
// ratio-sync formats): "preview" shows every model whose price would change, before and after,
// and only "apply" writes them (POST /api/pricing/sync; the server fetches the URL through its
// outbound-address guard and checks the document).
import { useState } from "react";
import { apiCall } from "../../console-runtime/api-client.ts";
import { showToast } from "../../console-runtime/toasts.ts";
import type { Language } from "../../src/i18n/languages.ts";
import type { PriceSyncResult } from "../../src/services/pricing/price-sync.ts";
import { priceLines } from "../shared/price-summary.ts";
import { pricingTranslator } from "../shared/pricing-translator.ts";
import { defineIsland } from "../island-definition.ts";

export type PriceSyncProps = { language: Language; lastUrl: string };

const formatNames: Record<PriceSyncResult["format"], string> = {
  switchyard: "Switchyard 价格表",
  "new-api-ratio-config": "new-api ratio_config",
  "new-api-pricing": "new-api /api/pricing",
};

const shownChanges = 200;

function Preview(props: { result: PriceSyncResult; language: Language }) {
  const t = pricingTranslator(props.language);
  const { result } = props;
  return (
    <div className="flex flex-col gap-2" data-testid="price-sync-preview">
      <p className="text-sm">
        {t("{{format}}：{{models}} 个模型，{{changes}} 个价格将改变，{{unchanged}} 个不变", {
          format: t(formatNames[result.format]),
          models: result.models,
          changes: result.changes.length,
          unchanged: result.unchanged,
        })}
      </p>
      {result.sources
        .filter((source) => source.source || source.as_of)
        .map((source) => (
          <p key={`${source.source ?? ""}|${source.as_of ?? ""}`} className="text-base-content/60 text-xs break-all">
            {t("来源：{{source}}（{{date}}）", { source: source.source ?? "—", date: source.as_of ?? t("未注明日期") })}
          </p>
        ))}
      {result.ignored.length > 0 ? (
        <p className="text-base-content/60 text-xs">{t("未使用的字段：{{fields}}", { fields: result.ignored.join(", ") })}</p>
      ) : null}
      {result.changes.length > 0 ? (
        <div className="max-h-96 overflow-auto">
          <table className="table table-sm">
            <thead>
              <tr>
                <th>{t("模型")}</th>
                <th>{t("现在")}</th>
                <th>{t("同步后")}</th>
              </tr>
            </thead>
            <tbody>
              {result.changes.slice(0, shownChanges).map((change) => (
                <tr key={change.model}>
                  <td className="font-mono text-xs break-all">{change.model}</td>
                  <td className="text-xs">
                    {priceLines(change.before, t).map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </td>
                  <td className="text-xs">
                    {priceLines(change.after, t).map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {result.changes.length > shownChanges ? (
            <p className="text-base-content/60 text-xs">
              {t("另有 {{count}} 个改变未列出", { count: result.changes.length - shownChanges })}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function PriceSync(props: PriceSyncProps) {
  const t = pricingTranslator(props.language);
  const [url, setUrl] = useState(props.lastUrl);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<PriceSyncResult | undefined>();

  const run = async (apply: boolean) => {
    if (!url.trim()) return showToast(t("请输入价格文件的地址"), "error");
    setBusy(true);
    try {
      const envelope = await apiCall<PriceSyncResult>("POST", "/api/pricing/sync", { url: url.trim(), apply });
      if (!envelope.data) return;
      if (apply) {
        sessionStorage.setItem("pending-toast", t("已更新 {{count}} 个模型的价格", { count: envelope.data.changes.length }));
        window.location.reload();
        return;
      }
      setPreview(envelope.data);
    } catch {
      setPreview(undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void run(false);
        }}
      >
        <label className="form-control min-w-64 flex-1">
          <span className="label-text mb-1 text-sm">{t("价格文件地址")}</span>
          <input
            className="input input-bordered input-sm w-full font-mono"
            type="url"
            value={url}
            placeholder="https://example.com/prices.json"
            onChange={(event) => {
              setUrl(event.target.value);
              setPreview(undefined);
            }}
          />
        </label>
        <button type="submit" className="btn btn-sm" disabled={busy}>
          {t("预览变化")}
        </button>
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={busy || !preview || preview.changes.length === 0}
          onClick={() => void run(true)}
        >
          {t("应用这些价格")}
        </button>
      </form>
      {preview ? <Preview result={preview} language={props.language} /> : null}
    </div>
  );
}

/** The island's one declaration (island-definition.ts): rendered by the prices tab of /setting, mounted by price-sync.island.tsx. */
export const priceSyncIsland = defineIsland("price-sync", PriceSync);
