// What the server put on the page for the runtime: translated texts and the signed-in user.
import type { Language } from "../src/i18n/languages.ts";

export type ConsoleUser = { id: number; username: string; display_name: string; role: number };
type ConsoleData = { texts: Record<string, string>; user: ConsoleUser | null; language: Language };

let data: ConsoleData | undefined;

function consoleData(): ConsoleData {
  if (!data) {
    const element = document.getElementById("console-data");
    data = element ? (JSON.parse(element.textContent ?? "{}") as ConsoleData) : { texts: {}, user: null, language: "zh" };
  }
  return data;
}

/** A runtime text in the page's language (falls back to the Chinese key). */
export function text(key: string): string {
  return consoleData().texts[key] ?? key;
}

/** The signed-in user: the server's view of this page, else what the last login stored. */
export function currentUser(): ConsoleUser | null {
  const fromServer = consoleData().user;
  if (fromServer) return fromServer;
  try {
    return JSON.parse(localStorage.getItem("user") ?? "null") as ConsoleUser | null;
  } catch {
    return null;
  }
}

export function rememberUser(user: ConsoleUser | null): void {
  if (user) localStorage.setItem("user", JSON.stringify(user));
  else localStorage.removeItem("user");
}
