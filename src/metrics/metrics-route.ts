// GET /metrics in Prometheus' text format: registered only when METRICS_ENABLED is true, and
// then answered only to `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time).
import { timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import type { Config } from "../config.ts";
import { metricsContentType, renderMetrics } from "./metrics.ts";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function metricsRoutes(config: Config) {
  const app = new Elysia({ name: "metrics" });
  if (!config.metrics.enabled) return app;
  const token = config.metrics.token;
  return app.get("/metrics", async ({ request }) => {
    const given = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization") ?? "")?.[1]?.trim() ?? "";
    if (!sameSecret(given, token)) {
      return new Response("unauthorized\n", { status: 401, headers: { "www-authenticate": 'Bearer realm="metrics"', "content-type": "text/plain; charset=utf-8" } });
    }
    return new Response(await renderMetrics(), { headers: { "content-type": metricsContentType, "cache-control": "no-store" } });
  });
}
