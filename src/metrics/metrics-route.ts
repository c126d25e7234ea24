// GET /metrics in Prometheus' text format. Off by default; switched on by the MetricsEnabled
// option (console settings or /api/option, with the MetricsToken option as its bearer token) or
// by METRICS_ENABLED with METRICS_TOKEN in the environment. Either source opens it with its own
// token (compared in constant time). While both are off the path does not exist: the same 404
// as any unknown page, read per request so switching the option needs no restart.
import { Elysia, NotFoundError } from "elysia";
import type { Config } from "../config.ts";
import { optionBool, optionText } from "../services/options/options.ts";
import { renderMetrics } from "./metrics.ts";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The bearer tokens that open /metrics now; none means metrics are off. */
function acceptedTokens(config: Config): string[] {
  const tokens: string[] = [];
  if (config.metrics.enabled) tokens.push(config.metrics.token);
  const optionToken = optionText("MetricsToken");
  if (optionBool("MetricsEnabled") && optionToken !== "") tokens.push(optionToken);
  return tokens;
}

export function metricsRoutes(config: Config) {
  return new Elysia({ name: "metrics" }).get("/metrics", async ({ request }) => {
    const tokens = acceptedTokens(config);
    if (tokens.length === 0) throw new NotFoundError();
    const given = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    // Every token is compared, so the answer time does not say which source matched.
    const matches = tokens.map((token) => sameSecret(given, token));
    if (!matches.includes(true)) {
      return new Response("unauthorized\n", {
        status: 401,
        headers: { "www-authenticate": 'Bearer realm="metrics"', "content-type": "text/plain; charset=utf-8" },
      });
    }
    const { body, contentType } = await renderMetrics();
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  });
}
