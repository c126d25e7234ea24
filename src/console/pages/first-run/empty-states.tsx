// Empty states that say what to do next (first run): no channel -> add one (opens the channel
// drawer); no token -> create one, then the API address and a curl line with that token, until it
// is first used; nothing logged -> try the playground. Each is an htmx region that renders itself
// again when any region of the page is refreshed after a change (refresh events bubble to body),
// so it goes away, or moves to its next step, as soon as the state changes.
import { enabledModelsOfGroups } from "../../../services/channels/group-models.ts";
import { firstTokenState, hasAnyChannel, hasUsageLogs } from "../../../services/onboarding/first-steps.ts";
import { Role } from "../../../services/users/roles.ts";
import { Icon, type IconName } from "../../components/icons.tsx";
import { fragmentResponse } from "../../fragment.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { maskedKey } from "../tokens/token-table.tsx";

export const firstChannelId = "first-channel";
export const firstTokenId = "first-token";

function Region(props: { id: string; path: string; children?: JSX.Element }) {
  return (
    <div id={props.id} hx-get={props.path} hx-trigger="refresh from:body" hx-target="this" hx-swap="outerHTML">
      {props.children as "safe"}
    </div>
  );
}

function Hint(props: { icon: IconName; title: string; text: string; children?: JSX.Element }) {
  return (
    <section class="card bg-base-100 border-primary/40 border shadow-sm" data-empty-state>
      <div class="card-body flex-row items-start gap-4 p-5 max-[600px]:flex-col max-[600px]:gap-2 max-[600px]:p-4">
        <span class="bg-primary/10 text-primary rounded-box p-3">
          <Icon name={props.icon} class="size-6" />
        </span>
        <div class="flex min-w-0 flex-1 flex-col gap-2">
          <h2 class="text-lg font-semibold" safe>
            {props.title}
          </h2>
          <p class="text-base-content/75 text-sm" safe>
            {props.text}
          </p>
          {props.children as "safe"}
        </div>
      </div>
    </section>
  );
}

/** /channel with no channel at all. */
export async function FirstChannel(props: { context: SignedInPageContext }): Promise<JSX.Element> {
  const { t } = props.context;
  const empty = !(await hasAnyChannel());
  return (
    <Region id={firstChannelId} path="/channel">
      {empty ? (
        <Hint
          icon="route"
          title={t("还没有渠道")}
          text={t("渠道是本站转发请求的上游：OpenAI、Claude、Gemini 等服务的地址和密钥。添加一个渠道，就可以开始调用模型。")}
        >
          <div>
            <button type="button" class="btn btn-primary btn-sm" data-channel-add safe>
              {t("添加第一个渠道")}
            </button>
          </div>
        </Hint>
      ) : (
        ""
      )}
    </Region>
  );
}

/** A line to copy; `shown` is what is displayed when it differs (a key masked like the token list does). */
function CopyLine(props: { label: string; value: string; shown?: string; copyLabel: string; name: string }) {
  return (
    <div class="flex flex-col gap-1">
      <span class="text-base-content/60 text-xs" safe>
        {props.label}
      </span>
      <div class="bg-base-200 rounded-box flex items-start gap-2 p-2">
        <code class="min-w-0 flex-1 whitespace-pre-wrap break-all font-mono text-xs" data-first-call={props.name} safe>
          {props.shown ?? props.value}
        </code>
        <button type="button" class="btn btn-ghost btn-xs" data-copy={props.value} safe>
          {props.copyLabel}
        </button>
      </div>
    </div>
  );
}

/** /token: no token yet, or a token that was never used (how to make the first call). */
export async function FirstToken(props: { context: SignedInPageContext; waitForChannel?: boolean }): Promise<JSX.Element> {
  const { t, user, status, url } = props.context;
  const state = await firstTokenState(user.id);
  let content: JSX.Element = "";
  // An operator whose site has no working channel yet is shown that one next step (the
  // getting-started card), not a second block asking for a token nothing could answer.
  if (state.kind === "none" && !props.waitForChannel) {
    content = (
      <Hint
        icon="key"
        title={t("还没有令牌")}
        text={t("应用和脚本用令牌调用本站的 API。创建一个令牌后，这里会给出接口地址和一行可以直接运行的 curl 命令。")}
      >
        <div>
          <button
            type="button"
            class="btn btn-primary btn-sm"
            hx-get="/token?drawer=new"
            hx-target="#token-drawer-slot"
            hx-swap="innerHTML"
            safe
          >
            {t("创建第一个令牌")}
          </button>
        </div>
      </Hint>
    );
  } else if (state.kind === "try") {
    const baseUrl = `${(status.server_address || url.origin).replace(/\/+$/, "")}/v1`;
    const models = await enabledModelsOfGroups([user.group]);
    const model = models.includes("gpt-4o-mini") || models.length === 0 ? "gpt-4o-mini" : models[0]!;
    const body = JSON.stringify({ model, messages: [{ role: "user", content: "Hello!" }] });
    const curl = (key: string) =>
      `curl ${baseUrl}/chat/completions -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '${body.replace(/'/g, "'\\''")}'`;
    content = (
      <Hint
        icon="sparkles"
        title={t("发出第一个请求")}
        text={t("任何兼容 OpenAI 的客户端都能使用：把接口地址和令牌填进去即可。你的令牌第一次被使用后，这个提示就会消失。")}
      >
        <div class="flex flex-col gap-2">
          <CopyLine label={t("接口地址")} value={baseUrl} copyLabel={t("复制")} name="base-url" />
          <CopyLine
            label={t("用最新的令牌试一试")}
            value={curl(`sk-${state.key}`)}
            shown={curl(maskedKey(state.key))}
            copyLabel={t("复制")}
            name="curl"
          />
        </div>
      </Hint>
    );
  }
  return (
    <Region id={firstTokenId} path="/token">
      {content}
    </Region>
  );
}

/** /log with nothing logged yet (the user's own usage; anyone's for an admin). */
export async function FirstLog(props: { context: SignedInPageContext }): Promise<JSX.Element> {
  const { t, user } = props.context;
  if (await hasUsageLogs(user.role >= Role.admin ? "all" : user.id)) return "";
  return (
    <Hint icon="file" title={t("还没有调用记录")} text={t("在操练场试一个模型，或者用令牌调用 API，每次调用的用量和花费都会记在这里。")}>
      <div class="flex flex-wrap gap-2">
        <a href="/playground" class="btn btn-primary btn-sm" safe>
          {t("打开操练场")}
        </a>
        <a href="/token" class="btn btn-sm" safe>
          {t("查看令牌")}
        </a>
      </div>
    </Hint>
  );
}

export async function firstChannelFragment(context: SignedInPageContext): Promise<Response> {
  return fragmentResponse(context, await FirstChannel({ context }));
}

export async function firstTokenFragment(context: SignedInPageContext): Promise<Response> {
  return fragmentResponse(context, await FirstToken({ context }));
}
