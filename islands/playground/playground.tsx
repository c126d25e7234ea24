/** @jsxImportSource react */
// The playground (spec §2, §4 Playground message, §9): settings on the left (group, model,
// temperature 0.1-1 in steps of 0.1, max tokens), the chat on the right with clear-context.
// Replies stream in; each message is loading, incomplete, complete or error, and a stream
// error is appended to the reply it broke.
import { useMemo, useRef, useState } from "react";
import { createIslandTranslator } from "../island-i18n.ts";
import type { Language } from "../../src/i18n/languages.ts";
import zhModels from "../../src/i18n/locales/zh/models.json";
import enModels from "../../src/i18n/locales/en/models.json";
import zhCommon from "../../src/i18n/locales/zh/common.json";
import enCommon from "../../src/i18n/locales/en/common.json";
import { streamChat, type ChatMessage } from "./chat-stream.ts";

export type PlaygroundProps = {
  language: Language;
  /** Group name -> description, the groups the user may pick. */
  groups: Record<string, string>;
  defaultGroup: string;
  models: string[];
};

type MessageState = "loading" | "incomplete" | "complete" | "error";
type ShownMessage = ChatMessage & { state: MessageState };

export const defaultModel = "gpt-4o-mini";

export function Playground(props: PlaygroundProps) {
  const t = useMemo(() => createIslandTranslator(props.language, [{ zh: zhModels, en: enModels }, { zh: zhCommon, en: enCommon }]), [props.language]);
  const models = props.models.length > 0 ? props.models : [defaultModel];
  const [group, setGroup] = useState(props.defaultGroup);
  const [model, setModel] = useState(models.includes(defaultModel) ? defaultModel : models[0]!);
  const [temperature, setTemperature] = useState(0.7);
  const [maxTokens, setMaxTokens] = useState(0);
  const [messages, setMessages] = useState<ShownMessage[]>([]);
  const [input, setInput] = useState("");
  const busy = messages.some((message) => message.state === "loading" || message.state === "incomplete");
  const abort = useRef<AbortController | null>(null);

  // Only the reply still on screen may change: after "clear context" a late chunk or the end
  // of an aborted stream has nothing left to update.
  const updateReply = (controller: AbortController, change: (message: ShownMessage) => ShownMessage) => {
    if (abort.current !== controller) return;
    setMessages((current) => {
      const last = current.at(-1);
      return last && last.role === "assistant" ? [...current.slice(0, -1), change(last)] : current;
    });
  };

  async function send() {
    const text = input.trim();
    if (!text || busy) return;
    // A failed reply is not context the model should see again.
    const history: ChatMessage[] = [...messages.filter((message) => message.state === "complete"), { role: "user" as const, content: text }].map(
      ({ role, content }) => ({ role, content }),
    );
    setInput("");
    setMessages((current) => [...current, { role: "user", content: text, state: "complete" }, { role: "assistant", content: "", state: "loading" }]);
    const controller = new AbortController();
    abort.current = controller;
    const outcome = await streamChat(
      { messages: history, model, group, temperature, max_tokens: maxTokens },
      (piece) => updateReply(controller, (message) => ({ ...message, content: message.content + piece, state: "incomplete" })),
      controller.signal,
    );
    updateReply(controller, (message) =>
      outcome.ok ? { ...message, state: "complete" } : { ...message, content: `${message.content}${message.content ? "\n\n" : ""}${outcome.error}`, state: "error" },
    );
    if (abort.current === controller) abort.current = null;
  }

  function clear() {
    const controller = abort.current;
    abort.current = null;
    controller?.abort();
    setMessages([]);
  }

  const groupNames = Object.keys(props.groups);
  return (
    <div className="flex gap-4 max-[601px]:flex-col">
      <aside className="card bg-base-100 w-72 shrink-0 shadow-sm max-[601px]:w-full" aria-label={t("设置")}>
        <div className="card-body gap-3 p-4">
          <label className="form-control w-full">
            <span className="label-text mb-1 block text-sm">{t("分组")}</span>
            <select className="select select-bordered select-sm w-full" value={group} onChange={(event) => setGroup(event.target.value)}>
              {(groupNames.length > 0 ? groupNames : [props.defaultGroup]).map((name) => (
                <option key={name} value={name}>
                  {props.groups[name] ? `${name} (${props.groups[name]})` : name}
                </option>
              ))}
            </select>
          </label>
          <label className="form-control w-full">
            <span className="label-text mb-1 block text-sm">{t("模型")}</span>
            <select className="select select-bordered select-sm w-full" value={model} onChange={(event) => setModel(event.target.value)}>
              {models.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label className="form-control w-full">
            <span className="label-text mb-1 block text-sm">{t("温度：{{value}}", { value: temperature.toFixed(1) })}</span>
            <input
              type="range"
              min={0.1}
              max={1}
              step={0.1}
              className="range range-sm"
              value={temperature}
              aria-label={t("温度")}
              onChange={(event) => setTemperature(Number(event.target.value))}
            />
          </label>
          <label className="form-control w-full">
            <span className="label-text mb-1 block text-sm">{t("最大令牌数（0 表示不限制）")}</span>
            <input type="number" min={0} className="input input-bordered input-sm w-full" value={maxTokens} onChange={(event) => setMaxTokens(Math.max(0, Number(event.target.value) || 0))} />
          </label>
          <button type="button" className="btn btn-sm" onClick={clear}>
            {t("清除上下文")}
          </button>
        </div>
      </aside>
      <section className="card bg-base-100 min-w-0 flex-1 shadow-sm" aria-label={t("对话")}>
        <div className="card-body gap-3 p-4">
          <div className="flex max-h-[60vh] min-h-64 flex-col gap-3 overflow-y-auto" aria-live="polite">
            {messages.length === 0 ? <p className="text-base-content/60 m-auto text-sm">{t("在下方输入消息开始对话")}</p> : null}
            {messages.map((message, index) => (
              <div key={index} className={`chat ${message.role === "user" ? "chat-end" : "chat-start"}`} data-state={message.state}>
                <div className={`chat-bubble whitespace-pre-wrap break-words ${message.role === "user" ? "chat-bubble-primary" : message.state === "error" ? "chat-bubble-error" : ""}`}>
                  {message.state === "loading" ? <span className="loading loading-dots loading-sm" aria-label={t("加载中")} /> : message.content}
                </div>
              </div>
            ))}
          </div>
          <form
            className="flex items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              void send();
            }}
          >
            <textarea
              className="textarea textarea-bordered min-h-12 flex-1"
              rows={2}
              placeholder={t("输入消息，Enter 发送，Shift+Enter 换行")}
              aria-label={t("消息")}
              value={input}
              onChange={(event) => setInput(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter" && !event.shiftKey) {
                  event.preventDefault();
                  void send();
                }
              }}
            />
            <button type="submit" className="btn btn-primary" disabled={busy || !input.trim()}>
              {t("发送")}
            </button>
          </form>
        </div>
      </section>
    </div>
  );
}
