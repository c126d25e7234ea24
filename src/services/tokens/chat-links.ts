// Chat links (the token list's chat action, /chat, /chat2link): the admin's templates from the Chats
// option (and the older single ChatLink option) with {key} and {address} filled in.
import { isSafeChatTemplate, webLinkOrEmpty } from "../options/link-rules.ts";
import { optionJson, optionText } from "../options/options.ts";
import { defaultChats } from "../options/option-registry.ts";
import type { Translate } from "../../i18n/i18n.ts";

export type ChatLink = { name: string; template: string };

/** The Chats option as [{name, template}], in order; malformed entries are skipped. */
export function chatLinks(): ChatLink[] {
  const chats = optionJson<unknown>("Chats");
  if (!Array.isArray(chats)) return [];
  return chats.flatMap((item) => {
    if (!item || typeof item !== "object") return [];
    const [name, template] = Object.entries(item as Record<string, unknown>)[0] ?? [];
    // A template that would run script is treated as malformed, even if stored before the rule.
    return typeof name === "string" && typeof template === "string" && template && isSafeChatTemplate(template) ? [{ name, template }] : [];
  });
}

const defaultChatNames = new Set(defaultChats.flatMap((chat) => Object.keys(chat)));

/**
 * A chat link's name as shown: the names the Chats option ships with are catalog keys, read in
 * the visitor's language; a name the admin wrote stays as written (it is data, and may hold
 * anything, "{{" included).
 */
export function chatLinkName(name: string, t: Translate): string {
  return defaultChatNames.has(name) ? t(name) : name;
}

/**
 * Why no chat link can be offered, as the message to show: the admin set none,
 * or the Chats option holds entries that are not {name: template} pairs.
 */
export function missingChatLinkMessage(): string {
  const chats = optionJson<unknown>("Chats");
  const malformed = Array.isArray(chats) && chats.length > chatLinks().length;
  return malformed ? "聊天链接配置错误，请联系管理员" : "请联系管理员配置聊天链接";
}

/** A template with the token (as sk-...) and the encoded server address filled in (new-api's rule). */
export function fillChatLink(template: string, key: string, serverAddress: string): string {
  return template.replaceAll("{address}", encodeURIComponent(serverAddress)).replaceAll("{key}", `sk-${key}`);
}

/**
 * Where /chat2link sends a user: the ChatLink option in NextChat's settings form when set,
 * else the first Chats template; undefined when the admin configured neither.
 */
export function chatRedirectLink(key: string, serverAddress: string): string | undefined {
  const chatLink = webLinkOrEmpty(optionText("ChatLink").trim()).replace(/\/+$/, "");
  if (chatLink) return `${chatLink}/#/?settings=${JSON.stringify({ key: `sk-${key}`, url: serverAddress })}`;
  const [first] = chatLinks();
  return first ? fillChatLink(first.template, key, serverAddress) : undefined;
}
