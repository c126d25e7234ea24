/** @jsxImportSource react */
// A multi-key channel's keys in the drawer: each key (masked) with its state and the reason the
// relay disabled it, and the operator's actions (enable, disable, delete; all at once; the
// disabled ones), through new-api's POST /api/channel/multi_key/manage.
import { useEffect, useState } from "react";
import { apiCall } from "../../console-runtime/api-client.ts";
import type { IslandTranslate } from "../island-i18n.ts";

type KeyRow = { index: number; key: string; status: number; reason?: string; time?: number };
type KeysView = { mode: string; total: number; enabled: number; keys: KeyRow[] };

function StatusBadge(props: { t: IslandTranslate; row: KeyRow }) {
  const { t, row } = props;
  if (row.status === 1) return <span className="badge badge-sm badge-success">{t("已启用")}</span>;
  if (row.status === 2) return <span className="badge badge-sm badge-neutral">{t("已禁用")}</span>;
  return (
    <span className="badge badge-sm badge-warning" title={row.reason}>
      {t("自动禁用")}
    </span>
  );
}

export function KeyList(props: { t: IslandTranslate; channelId: number; onChanged: () => void }) {
  const { t, channelId } = props;
  const [view, setView] = useState<KeysView | undefined>(undefined);
  const manage = async (action: string, keyIndex?: number) => {
    try {
      const envelope = await apiCall<KeysView>("POST", "/api/channel/multi_key/manage", {
        channel_id: channelId,
        action,
        ...(keyIndex === undefined ? {} : { key_index: keyIndex }),
      });
      setView(envelope.data);
      if (action !== "get_key_status") props.onChanged();
    } catch {
      // apiCall showed the server's message.
    }
  };
  useEffect(() => {
    apiCall<KeysView>("POST", "/api/channel/multi_key/manage", { channel_id: channelId, action: "get_key_status" })
      .then((envelope) => setView(envelope.data))
      .catch(() => undefined);
  }, [channelId]);
  if (!view) return <span className="loading loading-spinner loading-sm" />;
  return (
    <section className="flex flex-col gap-1" aria-label={t("密钥列表")} data-key-list>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span>{t("已启用 {{enabled}}/{{total}} 个密钥", { enabled: view.enabled, total: view.total })}</span>
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => void manage("enable_all_keys")}>
          {t("全部启用")}
        </button>
        <button type="button" className="btn btn-ghost btn-xs" onClick={() => void manage("disable_all_keys")}>
          {t("全部禁用")}
        </button>
        <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => void manage("delete_disabled_keys")}>
          {t("删除已禁用的密钥")}
        </button>
      </div>
      <ul className="divide-base-200 max-h-56 divide-y overflow-y-auto">
        {view.keys.map((row) => (
          <li key={row.index} className="flex items-center gap-2 py-1 text-xs" data-key-index={row.index}>
            <span className="w-8 shrink-0">{`#${row.index + 1}`}</span>
            <span className="min-w-0 flex-1 truncate font-mono" title={row.key}>
              {row.key}
            </span>
            <StatusBadge t={t} row={row} />
            {row.reason ? (
              <span className="text-base-content/60 max-w-40 truncate" title={row.reason}>
                {row.reason}
              </span>
            ) : null}
            {row.status === 1 ? (
              <button type="button" className="btn btn-ghost btn-xs" onClick={() => void manage("disable_key", row.index)}>
                {t("禁用")}
              </button>
            ) : (
              <button type="button" className="btn btn-ghost btn-xs" onClick={() => void manage("enable_key", row.index)}>
                {t("启用")}
              </button>
            )}
            <button type="button" className="btn btn-ghost btn-xs text-error" onClick={() => void manage("delete_key", row.index)}>
              {t("删除")}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
