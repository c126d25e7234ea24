/** @jsxImportSource react */
// The playground: settings on the left, the conversation on
// the right filling the window. Answers stream in as Markdown; one prompt can go to two models
// side by side; "view code" shows the request for the user's own token. The conversation is
// kept in localStorage per user and survives a reload.
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { showToast } from "../../console-runtime/toasts.ts";
import { createIslandTranslator } from "../island-i18n.ts";
import * as catalogs from "../../src/i18n/namespaces.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { formatPrice, type MoneyDisplay, type PriceList } from "./answer-cost.ts";
import { chatBody } from "./chat-request.ts";
import { Composer } from "./composer.tsx";
import { defaultParameters, type Message, type PlaygroundState } from "./conversation.ts";
import { ActionIcon } from "./icons.tsx";
import { MessageView } from "./message-view.tsx";
import { loadRenderer } from "./markdown-loader.ts";
import { ModelPicker } from "./model-picker.tsx";
import { SettingsPanel, type GroupChoice } from "./settings-panel.tsx";
import { usePlayground } from "./use-playground.ts";
import { ViewCodeDialog, type TokenChoice } from "./view-code-dialog.tsx";
import { defineIsland } from "../island-definition.ts";

export type PlaygroundProps = {
  language: Language;
  userId: number;
  groups: GroupChoice[];
  defaultGroup: string;
  /** Group -> the models it can call now. */
  modelsByGroup: Record<string, string[]>;
  prices: PriceList;
  /** What the relay does with a model that has no price (UnpricedModelPolicy). */
  unpricedPolicy: "refuse" | "ratio" | "free";
  money: MoneyDisplay;
  /** The user's enabled tokens, for "view code" (names only; a key is fetched when chosen). */
  tokens: TokenChoice[];
  baseUrl: string;
};

export const defaultModel = "gpt-4o-mini";

function MessageList(props: { messages: Message[]; empty: string; children: (message: Message) => ReactNode }) {
  const list = useRef<HTMLDivElement>(null);
  const last = props.messages.at(-1);
  // Follow the answer as it grows, unless the reader scrolled up to read something else.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the list's growth is what triggers the scroll, not an input of it
  useEffect(() => {
    const element = list.current;
    if (element && element.scrollHeight - element.scrollTop - element.clientHeight < 160) element.scrollTop = element.scrollHeight;
  }, [props.messages.length, last?.content, last?.reasoning]);
  return (
    <div ref={list} className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto px-1 py-2" aria-live="polite" data-messages>
      {props.messages.length === 0 ? <p className="text-base-content/60 m-auto max-w-sm text-center text-sm">{props.empty}</p> : null}
      {props.messages.map(props.children)}
    </div>
  );
}

export function Playground(props: PlaygroundProps) {
  const t = useMemo(
    () => createIslandTranslator(props.language, [catalogs.models, catalogs.common, catalogs.logs, catalogs.playground]),
    [props.language],
  );
  const modelsOf = (group: string) => props.modelsByGroup[group] ?? [];
  const priced = (model: string) => Boolean(props.prices.models[model]);
  const firstModels = modelsOf(props.defaultGroup);
  const firstPriced = firstModels.filter(priced);
  // The page's data is the island's starting point, taken once when it mounts.
  const [options] = useState(() => {
    const initial: PlaygroundState = {
      system: "",
      group: props.defaultGroup,
      parameters: defaultParameters,
      panes: [
        {
          model:
            firstModels.length === 0 || (firstModels.includes(defaultModel) && priced(defaultModel))
              ? defaultModel
              : (firstPriced[0] ?? firstModels[0]!),
          messages: [],
        },
      ],
    };
    return { userId: props.userId, initial, prices: props.prices, quotaPerUnit: props.money.quotaPerUnit };
  });
  const playground = usePlayground(options);
  const { state, busy } = playground;
  const [text, setText] = useState("");
  const [images, setImages] = useState<string[]>([]);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [codeOpen, setCodeOpen] = useState(false);
  const models = modelsOf(state.group);
  useEffect(() => void loadRenderer(), []);
  const comparing = state.panes.length > 1;

  const unpricedHint =
    props.unpricedPolicy === "refuse"
      ? t("该模型没有价格，调用会被拒绝，请联系管理员定价")
      : props.unpricedPolicy === "free"
        ? t("该模型没有价格，按站点设置免费调用")
        : t("该模型没有价格，按站点的默认倍率计费");

  /** The model a second pane starts with: another priced model, never an unpriced one. */
  const comparePartner = () => {
    const first = state.panes[0]!.model;
    return models.find((model) => model !== first && priced(model)) ?? (priced(first) ? first : (models.find(priced) ?? ""));
  };

  const priceOf = (model: string) => {
    const price = props.prices.models[model];
    const ratio = props.groups.find((group) => group.name === state.group)?.ratio ?? 1;
    if (!price) return "";
    if (price.kind === "fixed") return t("{{price}} / 次", { price: formatPrice(price.price * ratio) });
    return `${formatPrice(price.modelRatio * 2 * ratio)} / ${formatPrice(price.modelRatio * 2 * ratio * price.completionRatio)}`;
  };

  const send = () => {
    playground.send(text.trim(), images);
    setText("");
    setImages([]);
  };

  const pendingUser: Message = { id: "draft", role: "user", content: text.trim(), images, state: "complete" };
  const codeBody = codeOpen
    ? chatBody({
        model: state.panes[0]!.model,
        system: state.system,
        history: text.trim() || images.length ? [...state.panes[0]!.messages, pendingUser] : state.panes[0]!.messages,
        parameters: state.parameters,
      })
    : {};

  const picker = (pane: number, label: string) => (
    <ModelPicker
      t={t}
      label={label}
      value={state.panes[pane]!.model}
      models={models}
      priceOf={priceOf}
      unpriced={(model) => !priced(model)}
      unpricedHint={unpricedHint}
      onChange={(model) => playground.setModel(pane, model)}
    />
  );

  return (
    <div className="flex h-[calc(100dvh-6rem)] min-h-[28rem] gap-4 max-[600px]:h-[calc(100dvh-5rem)] max-[600px]:gap-2" data-playground>
      <aside
        className={`card bg-base-100 w-72 shrink-0 overflow-y-auto shadow-sm max-[900px]:fixed max-[900px]:inset-y-16 max-[900px]:right-0 max-[900px]:z-30 max-[900px]:w-80 max-[900px]:max-w-[90vw] max-[900px]:shadow-xl ${settingsOpen ? "" : "max-[900px]:hidden"}`}
        aria-label={t("设置")}
      >
        <div className="card-body gap-3 p-4">
          <div className="flex items-center justify-between min-[901px]:hidden">
            <h2 className="font-semibold">{t("参数")}</h2>
            <button type="button" className="btn btn-ghost btn-sm btn-square" aria-label={t("关闭")} onClick={() => setSettingsOpen(false)}>
              <ActionIcon name="close" />
            </button>
          </div>
          <SettingsPanel
            t={t}
            groups={props.groups}
            group={state.group}
            onGroup={playground.setGroup}
            parameters={state.parameters}
            onParameters={playground.setParameters}
            onClear={playground.clear}
            busy={busy}
          />
        </div>
      </aside>
      <section className="card bg-base-100 min-w-0 flex-1 shadow-sm" aria-label={t("对话")}>
        <div className="card-body min-h-0 gap-2 p-3 max-[600px]:p-2">
          <div className="flex flex-wrap items-center gap-2">
            {!comparing ? (
              <div className="w-72 max-w-full min-w-0 max-[600px]:flex-1">{picker(0, t("模型"))}</div>
            ) : (
              <span className="text-sm font-medium">{t("对比模式")}</span>
            )}
            <div className="ml-auto flex gap-1">
              <button
                type="button"
                className={`btn btn-sm gap-1 ${comparing ? "btn-active" : "btn-ghost"}`}
                aria-pressed={comparing}
                onClick={() => playground.setCompare(!comparing, comparePartner())}
                disabled={busy}
                aria-label={t("对比")}
                title={t("两个模型并排回答同一个问题")}
              >
                <ActionIcon name="compare" />
                <span className="max-[600px]:hidden">{t("对比")}</span>
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm gap-1"
                onClick={() => setCodeOpen(true)}
                aria-label={t("查看代码")}
                title={t("查看代码")}
              >
                <ActionIcon name="code" />
                <span className="max-[600px]:hidden">{t("查看代码")}</span>
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm gap-1 min-[901px]:hidden"
                aria-expanded={settingsOpen}
                aria-label={t("参数")}
                onClick={() => setSettingsOpen(!settingsOpen)}
              >
                <ActionIcon name="settings" />
                <span className="max-[600px]:hidden">{t("参数")}</span>
              </button>
            </div>
          </div>
          <details className="border-base-300 rounded-box border px-3 py-1 text-sm">
            <summary className="cursor-pointer select-none">
              {t("系统提示词")}
              {state.system ? <span className="text-base-content/60 ml-2 truncate">{state.system.slice(0, 60)}</span> : null}
            </summary>
            <textarea
              className="textarea textarea-bordered mt-2 mb-1 w-full"
              rows={3}
              placeholder={t("例如：你是一个乐于助人的助手。")}
              aria-label={t("系统提示词")}
              value={state.system}
              onChange={(event) => playground.setSystem(event.target.value)}
            />
          </details>
          <div
            className={`grid min-h-0 flex-1 gap-3 ${comparing ? "grid-cols-2 max-[700px]:grid-cols-1 max-[700px]:grid-rows-2" : "grid-cols-1"}`}
          >
            {state.panes.map((pane, index) => (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: a pane is its place (A or B); the compare switch adds or removes B
                key={index}
                className={`flex min-h-0 min-w-0 flex-col ${comparing ? "border-base-300 rounded-box border p-2" : ""}`}
                data-pane={index}
              >
                {comparing ? picker(index, t("模型 {{letter}}", { letter: index === 0 ? "A" : "B" })) : null}
                <MessageList
                  messages={pane.messages}
                  empty={
                    models.length > 0 ? t("在下方输入消息开始对话") : t("这个分组现在没有可用的模型：请联系管理员添加渠道，或换一个分组。")
                  }
                >
                  {(message) => (
                    <MessageView
                      key={message.id}
                      message={message}
                      t={t}
                      busy={busy}
                      money={props.money}
                      actions={{
                        edit: (id, content, resend) => playground.edit(index, id, content, resend),
                        regenerate: (id) => playground.regenerate(index, id),
                        remove: (id) => playground.remove(index, id),
                      }}
                    />
                  )}
                </MessageList>
              </div>
            ))}
          </div>
          <Composer
            t={t}
            busy={busy}
            text={text}
            images={images}
            onText={setText}
            onImages={setImages}
            onSend={send}
            onStop={playground.stop}
            onError={(message) => showToast(message, "error")}
          />
        </div>
      </section>
      <ViewCodeDialog
        t={t}
        open={codeOpen}
        onClose={() => setCodeOpen(false)}
        baseUrl={props.baseUrl}
        tokens={props.tokens}
        body={codeBody}
      />
    </div>
  );
}

/** The island's one declaration (island-definition.ts): rendered by /playground, mounted by playground.island.tsx. */
export const playgroundIsland = defineIsland("playground", Playground);
