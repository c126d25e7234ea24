// What the personal settings show of a user's sessions, and ending them (issue 28): the device
// read from the user agent (bowser, loaded on first use), the address, how and when the user
// signed in, and when the session was last seen. Admins end every session of a user they manage.
import type { AuditActor } from "../audit/audit-actor.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { invalid } from "../../errors/app-error.ts";
import { manageableUser } from "../users/user-admin.ts";
import type { UserRow } from "../users/user-view.ts";
import { endSessionsOfUser, endUserSession, listUserSessions, type SessionRecord } from "./session-records.ts";

export type SessionView = {
  id: number;
  /** "Chrome 131 · macOS", or "" when the user agent says nothing recognisable. */
  device: string;
  /** desktop, mobile, tablet, tv, bot, or "" */
  device_type: string;
  user_agent: string;
  address: string;
  method: string;
  created_at: number;
  last_seen_at: number;
  current: boolean;
};

type Parse = (userAgent: string) => { device: string; type: string };

let parser: Parse | undefined;

async function userAgentParser(): Promise<Parse> {
  if (parser) return parser;
  const Bowser = (await import("bowser")).default;
  parser = (userAgent) => {
    if (!userAgent) return { device: "", type: "" };
    const result = Bowser.parse(userAgent);
    const browser = [result.browser.name, result.browser.version?.split(".")[0]].filter(Boolean).join(" ");
    const system = [result.os.name, result.os.versionName ?? result.os.version].filter(Boolean).join(" ");
    return { device: [browser, system].filter(Boolean).join(" · "), type: result.platform.type ?? "" };
  };
  return parser;
}

function toView(record: SessionRecord, parse: Parse, currentId: number | undefined): SessionView {
  const { device, type } = parse(record.user_agent);
  return {
    id: record.id,
    device,
    device_type: type,
    user_agent: record.user_agent,
    address: record.address,
    method: record.method,
    created_at: record.created_at,
    last_seen_at: record.last_seen_at,
    current: record.id === currentId,
  };
}

/** GET /api/user/sessions: the caller's live sessions, theirs first. */
export async function listSessions(user: UserRow, currentId: number | undefined): Promise<SessionView[]> {
  const [records, parse] = await Promise.all([listUserSessions(user), userAgentParser()]);
  const views = records.map((record) => toView(record, parse, currentId));
  return [...views.filter((view) => view.current), ...views.filter((view) => !view.current)];
}

/** DELETE /api/user/sessions/{id}: ends one of the caller's own sessions. */
export async function endOwnSession(user: UserRow, id: number): Promise<void> {
  if (!Number.isInteger(id) || id <= 0) throw invalid("无效的参数");
  if (!(await endUserSession(user.id, id))) throw invalid("会话不存在或已结束");
}

/** DELETE /api/user/{id}/sessions: an admin ends every session of a user of a lower role. */
export async function endSessionsByAdmin(actor: UserRow, userId: number, auditActor: AuditActor): Promise<number> {
  const target = await manageableUser(actor, userId, "无权更新同权限等级或更高权限等级的用户信息");
  const ended = await endSessionsOfUser(target.id);
  await recordAudit(auditActor, {
    action: "user.end_sessions",
    targetType: "user",
    targetId: target.id,
    changes: [{ field: "sessions", before: ended }],
  });
  return ended;
}
