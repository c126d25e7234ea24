// Signed-in sessions on the security tab (issue 28): each session's device (from its user
// agent), address, how and when it signed in and when it was last seen; ending one, or every
// session at once. The list is an htmx region refreshed after a change.
import type { SessionView } from "../../../../services/sessions/session-views.ts";
import type { Translate } from "../../../../i18n/i18n.ts";
import { formatUnixTime } from "../../../format.ts";
import type { PageContext } from "../../../page-context.ts";

export const sessionsRegionId = "sessions-region";

const firstSteps: Record<string, string> = {
  password: "密码",
  passkey: "通行密钥",
  github: "GitHub",
  linuxdo: "LinuxDO",
  wechat: "微信",
  telegram: "Telegram",
};
const secondSteps: Record<string, string> = { totp: "验证码", recovery_code: "恢复码", passkey: "通行密钥" };

/** "密码 + 验证码", "OIDC", ... */
function methodLabel(method: string, t: Translate, oidcName: string): string {
  const [first = "", second] = method.split("+");
  const firstLabel = first === "oidc" ? oidcName : firstSteps[first] ? t(firstSteps[first]!) : first;
  return second ? `${firstLabel} + ${secondSteps[second] ? t(secondSteps[second]!) : second}` : firstLabel;
}

export function SessionList(props: { context: PageContext; sessions: SessionView[] }) {
  const { context, sessions } = props;
  const { t, status } = context;
  return (
    <ul id={sessionsRegionId} class="divide-base-200 divide-y" hx-get="/setting" hx-trigger="refresh" hx-target="this" hx-swap="outerHTML">
      {sessions.map((session) => (
        <li class="flex flex-wrap items-center justify-between gap-2 py-2" data-session-id={String(session.id)}>
          <div class="flex min-w-0 flex-col">
            <span class="flex flex-wrap items-center gap-2 font-medium">
              <span class="break-all" safe>
                {session.device || t("未知设备")}
              </span>
              {session.current ? (
                <span class="badge badge-primary badge-sm" safe>
                  {t("当前会话")}
                </span>
              ) : (
                ""
              )}
            </span>
            <span class="text-base-content/60 text-xs break-all" safe>
              {[session.address, methodLabel(session.method, t, status.oidc_provider_name)].join(" · ")}
            </span>
            <span class="text-base-content/60 text-xs" safe>
              {[
                t("登录于 {{time}}", { time: formatUnixTime(session.created_at, context.timeZone) }),
                t("最近活动 {{time}}", { time: formatUnixTime(session.last_seen_at, context.timeZone) }),
              ].join(" · ")}
            </span>
          </div>
          {session.current ? (
            ""
          ) : (
            <button
              type="button"
              class="btn btn-sm btn-outline"
              data-api-call={`DELETE /api/user/sessions/${session.id}`}
              data-confirm={t("确定要结束这个会话吗？该设备需要重新登录。")}
              data-success={`refresh:#${sessionsRegionId}`}
              safe
            >
              {t("结束会话")}
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

export function SessionsCard(props: { context: PageContext; sessions: SessionView[] }) {
  const { context } = props;
  const { t } = context;
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="sessions-title" id="sessions">
      <div class="card-body gap-3">
        <h2 id="sessions-title" class="card-title" safe>
          {t("登录设备")}
        </h2>
        <SessionList context={context} sessions={props.sessions} />
        <p class="text-base-content/70 text-sm" safe>
          {t("结束本账户在所有浏览器和设备上的登录，包括当前这一个。")}
        </p>
        <button
          type="button"
          class="btn btn-outline w-fit"
          data-api-call="DELETE /api/user/self/sessions"
          data-confirm={t("确定要退出所有设备吗？")}
          data-success="event:signed-out"
          data-done-text={t("已退出所有设备")}
          safe
        >
          {t("退出所有设备")}
        </button>
      </div>
    </section>
  );
}
