// The visitor's choices, kept in localStorage (read on start) and mirrored in cookies so the
// server renders the next page in the same language, theme and sidebar state.
import { languages, type Language } from "../src/i18n/languages.ts";

const year = 365 * 24 * 3600;

function setCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${year}; samesite=lax`;
}

function cookie(name: string): string | undefined {
  const match = new RegExp(`(?:^|;\\s*)${name}=([^;]*)`).exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : undefined;
}

export function currentTheme(): "light" | "dark" {
  const attribute = document.documentElement.dataset.theme;
  if (attribute === "dark" || attribute === "light") return attribute;
  return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function toggleTheme(): void {
  const next = currentTheme() === "dark" ? "light" : "dark";
  document.documentElement.dataset.theme = next;
  localStorage.setItem("theme", next);
  setCookie("theme", next);
}

export function setLanguage(language: Language): void {
  localStorage.setItem("i18nextLng", language);
  setCookie("lang", language);
  window.location.reload();
}

export function toggleSidebar(): void {
  if (window.matchMedia("(max-width: 600px)").matches) {
    document.getElementById("sidebar")?.classList.toggle("-translate-x-full");
    document.getElementById("sidebar-backdrop")?.classList.toggle("hidden");
    return;
  }
  const collapsed = document.body.classList.toggle("sidebar-collapsed");
  localStorage.setItem("default_collapse_sidebar", String(collapsed));
  setCookie("sidebar_collapsed", String(collapsed));
}

/** Brings cookies back in line with stored choices (e.g. after cookies were cleared). */
export function restorePreferences(pageLanguage: string): void {
  const theme = localStorage.getItem("theme");
  if ((theme === "dark" || theme === "light") && cookie("theme") !== theme) {
    document.documentElement.dataset.theme = theme;
    setCookie("theme", theme);
  }
  const language = localStorage.getItem("i18nextLng");
  if (languages.includes(language as Language) && !cookie("lang") && language !== pageLanguage) setLanguage(language as Language);
  const collapsed = localStorage.getItem("default_collapse_sidebar");
  if (collapsed !== null && cookie("sidebar_collapsed") === undefined) setCookie("sidebar_collapsed", collapsed);
}
