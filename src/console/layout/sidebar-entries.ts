// The sidebar's entries and who sees them: some need admin rights, some appear
// only when a site feature is switched on. Chat has one sub-entry per configured chat link.
import type { IconName } from "../components/icons.tsx";
import type { SystemStatus } from "../../services/status/system-status.ts";
import { isAdmin } from "../../services/users/roles.ts";

export type SidebarEntry = { href: string; label: string; icon: IconName; children?: { href: string; label: string }[] };

function chatLinkNames(chats: unknown): string[] {
  if (!Array.isArray(chats)) return [];
  return chats.flatMap((item) => (item && typeof item === "object" ? Object.keys(item as object).slice(0, 1) : []));
}

export function sidebarEntries(role: number, status: SystemStatus): SidebarEntry[] {
  const admin = isAdmin(role);
  const chats = chatLinkNames(status.chats);
  const entries: (SidebarEntry | false)[] = [
    { href: "/playground", label: "操练场", icon: "sparkles" },
    admin && { href: "/channel", label: "渠道", icon: "route" },
    chats.length > 0 && {
      href: "/chat/0",
      label: "聊天",
      icon: "chat",
      children: chats.map((name, index) => ({ href: `/chat/${index}`, label: name })),
    },
    { href: "/token", label: "令牌", icon: "key" },
    status.enable_data_export && { href: "/detail", label: "数据看板", icon: "chart" },
    admin && { href: "/redemption", label: "兑换码", icon: "gift" },
    { href: "/topup", label: "钱包", icon: "wallet" },
    admin && { href: "/user", label: "用户管理", icon: "users" },
    admin && { href: "/audit", label: "审计日志", icon: "filter" },
    admin && { href: "/api-reference", label: "API 参考", icon: "info" },
    { href: "/log", label: "日志", icon: "file" },
    status.enable_drawing && { href: "/midjourney", label: "绘图", icon: "image" },
    status.enable_task && { href: "/task", label: "异步任务", icon: "tasks" },
    { href: "/setting", label: "设置", icon: "settings" },
  ];
  return entries.filter((entry): entry is SidebarEntry => entry !== false);
}
