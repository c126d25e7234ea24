// Which face a path belongs to: it decides the error format (OpenAI object, envelope or page).
export type Face = "relay" | "api" | "console";

export function faceOf(path: string): Face {
  if (path === "/api" || path.startsWith("/api/")) return "api";
  if (/^\/(v1|v1beta|pg|mj|suno|dashboard)(\/|$)/.test(path) || /^\/mj-[^/]+\/mj\//.test(path)) return "relay";
  return "console";
}
