// The body parser of /api: Elysia's own parsers read the whole body before anything can look at
// its size, so /api reads it here, within its limit (read-body.ts), and then parses it the way
// Elysia would (JSON, form fields, text). Nothing before this point has parsed anything: the
// per-address rate limits run in onRequest, ahead of it (api/api-app.ts).
import { readBodyWithin } from "./read-body.ts";

const decoder = new TextDecoder();

export function limitedBodyParser(limitBytes: number) {
  return async ({ request }: { request: Request }, contentType: string): Promise<unknown> => {
    const bytes = await readBodyWithin(request, limitBytes);
    const type = contentType.split(";")[0]!.trim().toLowerCase();
    if (type === "application/json") return JSON.parse(decoder.decode(bytes));
    if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(decoder.decode(bytes)));
    if (type === "multipart/form-data") {
      const form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
      const fields: Record<string, FormDataEntryValue> = {};
      for (const [key, value] of form) fields[key] ??= value;
      return fields;
    }
    if (type.startsWith("text/")) return decoder.decode(bytes);
    // Any other type: the body is read (and counted) but means nothing to /api.
    return undefined;
  };
}
