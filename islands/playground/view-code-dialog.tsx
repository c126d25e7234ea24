/** @jsxImportSource react */
// "View code": the request the playground would send next, as curl, Python or JavaScript against
// /v1 with a token the user picks from their own. No key is in the code until the user chooses a
// token; its key is fetched then (GET /api/token/{id}), not handed to the page beforehand.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { apiCall } from "../../console-runtime/api-client.ts";
import { copyText } from "../../console-runtime/clipboard.ts";
import type { IslandTranslate } from "../island-i18n.ts";
import { codeSample, programBody, type CodeLanguage } from "./code-samples.ts";
import { useRenderer } from "./markdown-loader.ts";

export type TokenChoice = { id: number; name: string };

type Props = {
  t: IslandTranslate;
  open: boolean;
  onClose: () => void;
  baseUrl: string;
  tokens: TokenChoice[];
  body: Record<string, unknown>;
};

const languages: { id: CodeLanguage; label: string; highlight: string }[] = [
  { id: "curl", label: "curl", highlight: "bash" },
  { id: "python", label: "Python", highlight: "python" },
  { id: "javascript", label: "JavaScript", highlight: "javascript" },
];

const placeholderKey = "sk-…";

export function ViewCodeDialog(props: Props) {
  const { t, tokens } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const [language, setLanguage] = useState<CodeLanguage>("curl");
  const [tokenId, setTokenId] = useState<number | "">("");
  const [key, setKey] = useState<string>("");
  const tokenField = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) element.showModal();
    if (!props.open && element.open) element.close();
  }, [props.open]);

  async function chooseToken(id: number | "") {
    setTokenId(id);
    setKey("");
    if (id === "") return;
    try {
      const envelope = await apiCall<{ key: string }>("GET", `/api/token/${id}`);
      setKey(`sk-${envelope.data?.key ?? ""}`);
    } catch {
      setTokenId("");
    }
  }

  const renderer = useRenderer();
  const body = useMemo(() => programBody(props.body), [props.body]);
  const highlight = languages.find((entry) => entry.id === language)!.highlight;
  const shown = useMemo(
    () => codeSample(language, { baseUrl: props.baseUrl, key: key || placeholderKey, body, shorten: true }),
    [language, props.baseUrl, key, body],
  );
  const exact = () => codeSample(language, { baseUrl: props.baseUrl, key: key || placeholderKey, body, shorten: false });

  return (
    <dialog ref={dialog} className="modal" onClose={props.onClose} aria-label={t("查看代码")}>
      <div className="modal-box flex max-h-[90dvh] w-11/12 max-w-3xl flex-col gap-3 max-[600px]:w-full max-[600px]:p-4">
        <h3 className="text-lg font-bold">{t("查看代码")}</h3>
        <p className="text-base-content/70 text-sm">{t("下一次发送的请求，用你的令牌直接调用本站的 API。")}</p>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={tokenField}>{t("使用的令牌")}</label>
          {tokens.length === 0 ? (
            <span className="text-base-content/70">
              {t("你还没有可用的令牌。")}{" "}
              <a className="link link-primary" href="/token">
                {t("去创建令牌")}
              </a>
            </span>
          ) : (
            <select
              id={tokenField}
              className="select select-bordered select-sm w-full"
              value={tokenId}
              onChange={(event) => void chooseToken(event.target.value === "" ? "" : Number(event.target.value))}
            >
              <option value="">{t("选择一个令牌以填入它的密钥")}</option>
              {tokens.map((token) => (
                <option key={token.id} value={token.id}>
                  {token.name || `#${token.id}`}
                </option>
              ))}
            </select>
          )}
        </div>
        <div role="tablist" className="tabs tabs-box tabs-sm w-fit">
          {languages.map((entry) => (
            <button
              key={entry.id}
              type="button"
              role="tab"
              aria-selected={language === entry.id}
              className={`tab ${language === entry.id ? "tab-active" : ""}`}
              onClick={() => setLanguage(entry.id)}
            >
              {entry.label}
            </button>
          ))}
        </div>
        <div className="code-block min-h-0 flex-1 overflow-hidden">
          <div className="code-block-head">
            <span>{language}</span>
            <button type="button" className="btn btn-ghost btn-xs" onClick={() => void copyText(exact())}>
              {t("复制")}
            </button>
          </div>
          <pre className="max-h-[50dvh] overflow-auto" data-code-sample={language}>
            {renderer ? (
              // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js escapes the code it marks up
              <code className="hljs" dangerouslySetInnerHTML={{ __html: renderer.highlightCode(shown, highlight) }} />
            ) : (
              <code>{shown}</code>
            )}
          </pre>
        </div>
        <div className="modal-action mt-0">
          <button type="button" className="btn btn-sm" onClick={props.onClose}>
            {t("关闭")}
          </button>
        </div>
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="submit" aria-label={t("关闭")}>
          {t("关闭")}
        </button>
      </form>
    </dialog>
  );
}
