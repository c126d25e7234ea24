/** @jsxImportSource react */
// One message of the conversation: the user's text and pictures, or an answer rendered as
// Markdown with its reasoning folded above it and a line of numbers below it (tokens, cost,
// time to first token, tokens per second). Each message can be copied, edited, answered again
// and deleted. The element carries the spec's message state (loading, incomplete, complete,
// error) in data-state.
import { useEffect, useMemo, useRef, useState, type MouseEvent } from "react";
import { copyText } from "../../console-runtime/clipboard.ts";
import type { IslandTranslate } from "../island-i18n.ts";
import { formatQuota, type MoneyDisplay } from "./answer-cost.ts";
import type { Message } from "./conversation.ts";
import { useRenderer } from "./markdown-loader.ts";
import { splitThinking } from "./thinking.ts";
import { ActionIcon, type IconName } from "./icons.tsx";

export type MessageActions = {
  edit(id: string, content: string, resend: boolean): void;
  regenerate(id: string): void;
  remove(id: string): void;
};

type Props = { message: Message; t: IslandTranslate; busy: boolean; money: MoneyDisplay; actions: MessageActions };

function ActionButton(props: { icon: IconName; label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <button
      type="button"
      className="btn btn-ghost btn-xs btn-square"
      title={props.label}
      aria-label={props.label}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      <ActionIcon name={props.icon} />
    </button>
  );
}

/** Copy buttons of code blocks inside the rendered Markdown. */
function copyCodeBlock(event: MouseEvent<HTMLElement>) {
  const button = (event.target as HTMLElement).closest<HTMLElement>("[data-copy-code]");
  const code = button?.closest(".code-block")?.querySelector("code");
  if (code) void copyText(code.textContent ?? "");
}

function Stats(props: { message: Message; t: IslandTranslate; money: MoneyDisplay }) {
  const { message, t } = props;
  const stats = message.stats;
  if (!stats) return null;
  const parts: string[] = [];
  if (stats.promptTokens !== undefined || stats.completionTokens !== undefined) {
    parts.push(
      t("{{prompt}} 输入 · {{completion}} 输出 tokens", { prompt: stats.promptTokens ?? 0, completion: stats.completionTokens ?? 0 }),
    );
  }
  if (stats.quota !== undefined) parts.push(t("花费 {{cost}}", { cost: formatQuota(stats.quota, props.money) }));
  if (stats.firstTokenMs !== undefined) parts.push(t("首字 {{seconds}} 秒", { seconds: (stats.firstTokenMs / 1000).toFixed(2) }));
  if (stats.tokensPerSecond !== undefined) parts.push(t("{{speed}} tokens/秒", { speed: stats.tokensPerSecond.toFixed(1) }));
  parts.push(t("用时 {{seconds}} 秒", { seconds: (stats.durationMs / 1000).toFixed(2) }));
  return (
    <div className="text-base-content/60 flex flex-wrap gap-x-3 gap-y-0.5 text-xs" data-stats>
      <span className="font-medium">{stats.model}</span>
      {parts.map((part) => (
        <span key={part}>{part}</span>
      ))}
    </div>
  );
}

function Editor(props: { message: Message; t: IslandTranslate; onDone: (content: string | null, resend: boolean) => void }) {
  const [draft, setDraft] = useState(props.message.content);
  const { t } = props;
  // The reader asked to edit: the text is where the keys go.
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => field.current?.focus(), []);
  return (
    <div className="flex w-full flex-col gap-2">
      <textarea
        ref={field}
        className="textarea textarea-bordered w-full text-base-content"
        rows={Math.min(12, draft.split("\n").length + 1)}
        value={draft}
        aria-label={t("编辑消息")}
        onChange={(event) => setDraft(event.target.value)}
      />
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn btn-sm" onClick={() => props.onDone(null, false)}>
          {t("取消")}
        </button>
        <button type="button" className="btn btn-sm" onClick={() => props.onDone(draft, false)}>
          {t("保存")}
        </button>
        {props.message.role === "user" ? (
          <button type="button" className="btn btn-sm btn-primary" onClick={() => props.onDone(draft, true)}>
            {t("保存并重新发送")}
          </button>
        ) : null}
      </div>
    </div>
  );
}

export function MessageView(props: Props) {
  const { message, t, busy, actions } = props;
  const [editing, setEditing] = useState(false);
  const isUser = message.role === "user";
  const thinking = useMemo(() => splitThinking(message.content), [message.content]);
  const reasoning = (message.reasoning ?? "") + thinking.reasoning;
  const renderer = useRenderer();
  const html = useMemo(
    () => (isUser || !renderer ? "" : renderer.markdownHtml(thinking.answer, t("复制"))),
    [isUser, renderer, thinking.answer, t],
  );
  const streaming = message.state === "loading" || message.state === "incomplete";

  const body = editing ? (
    <Editor
      message={message}
      t={t}
      onDone={(content, resend) => {
        setEditing(false);
        if (content !== null) actions.edit(message.id, content, resend);
      }}
    />
  ) : (
    <>
      {message.images && message.images.length > 0 ? (
        <div className="mb-1 flex flex-wrap gap-2">
          {message.images.map((url, index) => (
            <img
              // biome-ignore lint/suspicious/noArrayIndexKey: a sent message's pictures never change or move; the same picture may be there twice
              key={index}
              src={url}
              alt={t("图片 {{index}}", { index: index + 1 })}
              className="max-h-40 max-w-48 rounded object-contain"
            />
          ))}
        </div>
      ) : null}
      {reasoning ? (
        <details
          className="reasoning mb-2 rounded border border-base-300 bg-base-200/60 px-3 py-1 text-sm"
          open={streaming && !thinking.answer}
        >
          <summary className="cursor-pointer select-none text-base-content/70">
            {streaming && !thinking.answer ? t("思考中…") : t("思考过程")}
          </summary>
          <div className="whitespace-pre-wrap break-words pt-1 text-base-content/70">{reasoning}</div>
        </details>
      ) : null}
      {message.state === "loading" ? <span className="loading loading-dots loading-sm" role="status" aria-label={t("加载中")} /> : null}
      {isUser ? (
        <div className="whitespace-pre-wrap break-words">{message.content}</div>
      ) : renderer ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: delegates clicks of the copy buttons inside the answer, real <button>s that keys reach
        // biome-ignore lint/a11y/useKeyWithClickEvents: as above: Enter and Space on those buttons arrive here as clicks
        <div
          className="answer-markdown prose prose-sm max-w-none break-words"
          onClick={copyCodeBlock}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: markdown.ts renders the answer through DOMPurify
          dangerouslySetInnerHTML={{ __html: html }}
        />
      ) : (
        <div className="answer-markdown whitespace-pre-wrap break-words">{thinking.answer}</div>
      )}
      {message.stopped ? <div className="text-base-content/60 mt-1 text-xs">{t("已停止生成")}</div> : null}
      {message.error ? <div className="mt-1 whitespace-pre-wrap break-words text-sm">{message.error}</div> : null}
    </>
  );

  return (
    <div className={`chat ${isUser ? "chat-end" : "chat-start"}`} data-state={message.state} data-role={message.role}>
      <div
        className={`chat-bubble ${isUser ? "chat-bubble-primary" : message.state === "error" ? "chat-bubble-error" : "bg-base-100 text-base-content border border-base-300 w-full max-w-full"} ${editing ? "w-full max-w-full" : ""}`}
      >
        {body}
      </div>
      {!editing && !streaming ? (
        <div className="chat-footer mt-1 flex flex-wrap items-center gap-2">
          {!isUser ? <Stats message={message} t={t} money={props.money} /> : null}
          <div className="flex gap-0.5 opacity-70 hover:opacity-100">
            <ActionButton icon="copy" label={t("复制")} onClick={() => void copyText(message.content)} />
            <ActionButton icon="edit" label={t("编辑")} onClick={() => setEditing(true)} disabled={busy} />
            <ActionButton icon="regenerate" label={t("重新生成")} onClick={() => actions.regenerate(message.id)} disabled={busy} />
            <ActionButton icon="delete" label={t("删除")} onClick={() => actions.remove(message.id)} disabled={busy} />
          </div>
        </div>
      ) : null}
    </div>
  );
}
