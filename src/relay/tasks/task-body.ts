// The JSON object body of a task request; anything else is refused before it costs anything.
import { AppError } from "../../errors/app-error.ts";

export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await request.text());
  } catch {
    throw new AppError("invalid", "请求体不是合法的 JSON", undefined, { code: "invalid_request" });
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new AppError("invalid", "请求体不是合法的 JSON", undefined, { code: "invalid_request" });
  return parsed as Record<string, unknown>;
}
