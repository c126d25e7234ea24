// The admins' "getting started" checklist (channel -> test -> token -> first request -> prices),
// ticked from the store by services/onboarding/getting-started.ts, shown on the home page and on
// the console's landing page (/token). "Hide" is a remembered toggle (the runtime's data-remember
// sets a cookie this reads); the card hides itself at once through CSS (:has).
import { gettingStarted, type GettingStartedStep } from "../../../services/onboarding/getting-started.ts";
import { Role } from "../../../services/users/roles.ts";
import type { UserRow } from "../../../services/users/user-view.ts";
import type { PageContext } from "../../page-context.ts";

const hiddenCookie = "getting_started_hidden";

type StepText = { title: string; hint: string; action: string; href: (user: UserRow) => string };

const steps: [GettingStartedStep, StepText][] = [
  [
    "channel",
    { title: "添加一个渠道", hint: "连接一个上游（OpenAI、Claude 等），填入它的密钥。", action: "去添加渠道", href: () => "/channel/add" },
  ],
  ["test", { title: "测试一个渠道", hint: "在渠道列表点「测试」，确认密钥和地址可用。", action: "去测试渠道", href: () => "/channel" }],
  ["token", { title: "创建一个令牌", hint: "应用用令牌调用本站的 API。", action: "创建令牌 →", href: () => "/token" }],
  ["request", { title: "发出第一个请求", hint: "用令牌调用一次 /v1/chat/completions。", action: "查看示例", href: () => "/token" }],
  [
    "prices",
    {
      title: "设置模型价格",
      hint: "没有价格的模型会被拒绝调用。",
      action: "去设置价格",
      href: (user) => (user.role >= Role.root ? "/setting?tab=prices" : "/pricing"),
    },
  ],
];

function isHidden(context: PageContext): boolean {
  return new RegExp(`(?:^|;\\s*)${hiddenCookie}=true`).test(context.request.headers.get("cookie") ?? "");
}

/** The step the card points at, when the card is shown (to an admin who has not hidden it). */
export async function gettingStartedNextStep(context: PageContext): Promise<GettingStartedStep | undefined> {
  const { user } = context;
  if (!user || user.role < Role.admin || isHidden(context)) return undefined;
  const state = await gettingStarted();
  return steps.find(([step]) => !state.done[step])?.[0];
}

/** The card, or nothing for non-admins and admins who hid it. */
export async function GettingStartedCard(props: { context: PageContext }): Promise<JSX.Element> {
  const { context } = props;
  const { t, user } = context;
  if (!user || user.role < Role.admin || isHidden(context)) return "";
  const state = await gettingStarted();
  const doneCount = Object.values(state.done).filter(Boolean).length;
  const next = steps.find(([step]) => !state.done[step])?.[0];
  return (
    <section
      class="card bg-base-100 shadow-sm has-[input[data-remember]:checked]:hidden"
      aria-labelledby="getting-started-title"
      data-getting-started
    >
      <div class="card-body gap-3 p-4">
        <div class="flex flex-wrap items-center justify-between gap-2">
          <div class="flex items-baseline gap-3">
            <h2 id="getting-started-title" class="card-title text-base" safe>
              {t("快速上手")}
            </h2>
            <span class="text-base-content/60 text-sm" safe>
              {t("已完成 {{done}}/{{total}}", { done: doneCount, total: steps.length })}
            </span>
          </div>
          <label class="btn btn-ghost btn-xs">
            <input type="checkbox" class="hidden" data-remember={hiddenCookie} />
            <span safe>{t("不再显示")}</span>
          </label>
        </div>
        {state.complete ? (
          <p class="text-success text-sm" safe>
            {t("全部完成，站点已经可以使用了。")}
          </p>
        ) : (
          ""
        )}
        <ol class="grid gap-3 min-[1100px]:grid-cols-5 min-[601px]:grid-cols-2">
          {steps.map(([step, text], index) => {
            const done = state.done[step];
            return (
              <li
                class={`rounded-box border p-3 ${step === next ? "border-primary bg-primary/5" : "border-base-300"}`}
                data-step={step}
                data-done={String(done)}
              >
                <div class="flex items-center gap-2">
                  <span
                    class={`badge badge-sm ${done ? "badge-success" : step === next ? "badge-primary" : "badge-ghost"}`}
                    aria-hidden="true"
                    safe
                  >
                    {done ? "✓" : String(index + 1)}
                  </span>
                  <span class={`font-medium ${done ? "text-base-content/60 line-through" : ""}`} safe>
                    {t(text.title)}
                  </span>
                  <span class="sr-only" safe>
                    {done ? t("此步已完成") : t("此步未完成")}
                  </span>
                </div>
                <p class="text-base-content/70 mt-1 text-xs" safe>
                  {t(text.hint)}
                </p>
                {step === "prices" && state.unpricedModels.length > 0 ? (
                  <p class="text-warning mt-1 break-words text-xs" safe>
                    {t("未定价：{{models}}", { models: state.unpricedModels.join(", ") })}
                  </p>
                ) : (
                  ""
                )}
                {!done ? (
                  <a
                    href={text.href(user)}
                    class={step === next ? "btn btn-primary btn-xs mt-2" : "link link-primary mt-2 inline-block text-xs"}
                    safe
                  >
                    {t(text.action)}
                  </a>
                ) : (
                  ""
                )}
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
