// Which face a path belongs to: it decides the error format (OpenAI object, envelope or page).
export type Face = "relay" | "api" | "console";

export function faceOf(path: string): Face {
  if (path === "/api" || path.startsWith("/api/")) return "api";
  if (/^\/(v1|v1beta|pg|mj|suno|dashboard)(\/|$)/.test(path) || /^\/mj-[^/]+\/mj\//.test(path)) return "relay";
  return "console";
}

/** The path of a request's absolute URL, without parsing all of it (this runs for every request). */
export function pathOfUrl(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const query = url.indexOf("?", start);
  return query < 0 ? url.slice(start) : url.slice(start, query);
}
