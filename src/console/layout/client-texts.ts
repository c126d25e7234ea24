// Texts the browser runtime shows by itself (toasts for failed calls, clipboard fallback,
// confirmations), translated on the server and handed over as JSON so no catalog ships to it.
import type { Translate } from "../../i18n/i18n.ts";

const clientTextKeys = [
  "错误：请求次数过多，请稍后再试！",
  "错误：服务器内部错误，请联系管理员！",
  "本站仅作演示之用，无服务端！",
  "错误：",
  "无法复制到剪贴板，请手动复制",
  "已复制到剪贴板",
  "未登录或登录已过期，请重新登录",
  "请求失败",
  "保存失败，请重试",
  "确定",
  "取消",
  "关闭",
  "操作成功完成！",
] as const;

export function clientTexts(t: Translate): Record<string, string> {
  return Object.fromEntries(clientTextKeys.map((key) => [key, t(key)]));
}
