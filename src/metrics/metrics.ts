// What the gateway tells Prometheus, and the few named points where the code reports it:
//
//   countRequest           every answered request (app.ts, after the response)
//   labelRelayRequest      the relay pipeline names the model and channel of its request
//   observeRelaySettled    a relay request settled: latency, time to first token, quota
//   countBillingAnomaly    a settlement could not collect all it cost, or its upstream reported
//                          more completion than the request's max_tokens
//   countUpstreamFailure   an upstream attempt failed, by class
//   trackStream            a relay stream opened (end() when it closed)
//   observeLedgerCommit    the ledger wrote one batch (its hook, wired by service-gauges.ts)
//   registerCacheSize      a cache says how to read its size (read when scraped)
//   registerReservations   how to read the open holds' count and sum (service-gauges.ts)
//   registerSharedStateHealth  whether Redis is reachable (service-gauges.ts)
//
// Labels stay bounded: routes are the registered patterns (never raw paths), models are named
// only once a channel was chosen for them (so they come from the operators' lists; callers fold
// GPTs names with routeModelName as routing does), channels are ids, statuses are numbers. No
// user ids.
import type { Registry } from "prom-client";
import type { UpstreamFailure } from "../relay/upstream/upstream-failure.ts";
import { faceOf } from "../faces.ts";
import { CounterFamily, HistogramFamily, SampledGauge, type CounterChild, type HistogramChild } from "./metric-families.ts";

const requests = new CounterFamily(
  "switchyard_requests_total",
  "Answered requests by face, route pattern, model, channel and HTTP status",
  ["face", "route", "model", "channel", "status"],
);
const relayDuration = new HistogramFamily(
  "switchyard_relay_duration_seconds",
  "Relay requests from arrival to settlement (streams: to their end), by endpoint and model",
  ["endpoint", "model"],
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
);
const firstToken = new HistogramFamily(
  "switchyard_relay_first_token_seconds",
  "Streamed relay requests from arrival to the first byte sent to the client, by endpoint and model",
  ["endpoint", "model"],
  [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
);
const upstreamErrors = new CounterFamily("switchyard_upstream_errors_total", "Failed upstream attempts by class and channel", [
  "class",
  "channel",
]);
const quotaConsumed = new CounterFamily(
  "switchyard_quota_consumed_total",
  "Quota charged by settled relay requests, by model and channel",
  ["model", "channel"],
);
const quotaUncollected = new CounterFamily(
  "switchyard_quota_uncollected_total",
  "Quota settled requests cost beyond what the balances had left (a balance stops at zero), by channel",
  ["channel"],
);
const completionsOverLimit = new CounterFamily(
  "switchyard_completions_over_limit_total",
  "Answers whose upstream reported more completion tokens than the request's max_tokens, by channel",
  ["channel"],
);
const ledgerBatchSize = new HistogramFamily(
  "switchyard_ledger_batch_size",
  "Quota moves (holds, settlements, releases) written per ledger transaction",
  [],
  [1, 2, 4, 8, 16, 32, 64, 128, 256, 512],
);
const ledgerCommit = new HistogramFamily(
  "switchyard_ledger_commit_seconds",
  "Time to write and commit one ledger batch",
  [],
  [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
);
const cacheSizes = new SampledGauge("switchyard_cache_entries", "Entries held by each in-process cache", "cache");
// What this instance holds reserved and not yet settled or released: 0 at quiescence (the fault
// suite's ledger check reads it after every case).
const reservations = new SampledGauge(
  "switchyard_reservations_open",
  "Reservations of this instance still open, as a count and as quota",
  "measure",
);
const sharedHealth = new SampledGauge(
  "switchyard_shared_state_healthy",
  "1 while the state shared between instances is reachable (always 1 in memory), 0 while degraded",
  "kind",
);
let streamsOpen = 0;
const streamsInFlight = {
  name: "switchyard_relay_streams_in_flight",
  help: "Relay streams currently open to clients",
  type: "gauge" as const,
  aggregator: "sum" as const,
  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: [{ labels: {}, value: streamsOpen }] };
  },
  reset() {},
};

const ownMetrics = [
  requests,
  relayDuration,
  firstToken,
  upstreamErrors,
  quotaConsumed,
  quotaUncollected,
  completionsOverLimit,
  ledgerBatchSize,
  ledgerCommit,
  cacheSizes,
  reservations,
  sharedHealth,
  streamsInFlight,
];

// prom-client's registry with its default process metrics (CPU, memory, event loop lag, GC):
// loading the package and starting those collectors takes about 7 ms of CPU, which a start would
// spend before its first answer. It is set up by startProcessMetrics, a moment after the server
// listens, or by the first scrape if that comes sooner. Our own families count from the start.
let registry: Promise<Registry> | undefined;

function prometheusRegistry(): Promise<Registry> {
  registry ??= import("prom-client").then(({ collectDefaultMetrics, Registry }) => {
    const created = new Registry();
    collectDefaultMetrics({ register: created, prefix: "switchyard_" });
    for (const metric of ownMetrics) created.registerMetric(metric as never);
    return created;
  });
  return registry;
}

/** Starts the default process metrics once the start is over (they then watch from there on). */
export function startProcessMetrics(afterMs: number): void {
  setTimeout(() => void prometheusRegistry(), afterMs).unref();
}

type RelayLabels = { model: string; channel: string };
const relayLabels = new WeakMap<Request, RelayLabels>();
const unlabelled: RelayLabels = { model: "", channel: "" };

export function labelRelayRequest(request: Request, model: string | undefined, channelId: number | undefined): void {
  relayLabels.set(request, { model: model ?? "", channel: channelId ? String(channelId) : "" });
}

const faceByRoute = new Map<string, string>();

/** `route` is the matched route's pattern; undefined when nothing matched (then the path says the face). */
export function countRequest(route: string | undefined, request: Request, status: number): void {
  let face = route === undefined ? undefined : faceByRoute.get(route);
  if (face === undefined) {
    face = faceOf(route ?? new URL(request.url).pathname);
    if (route !== undefined) faceByRoute.set(route, face);
  }
  const labels = relayLabels.get(request);
  // Read once: dropping the entry now spares the collector an entry per request to clear.
  if (labels) relayLabels.delete(request);
  const { model, channel } = labels ?? unlabelled;
  requests.child(face, route ?? "unmatched", model, channel, String(status)).value++;
}

type SettledChildren = { duration: HistogramChild; firstToken: HistogramChild; quota: CounterChild };
const settledChildren = new Map<string, SettledChildren>();

export function observeRelaySettled(
  endpoint: string,
  model: string,
  channelId: number,
  seconds: number,
  firstTokenSeconds: number | undefined,
  quota: number,
): void {
  // One lookup finds the three children of this endpoint, model and channel.
  const key = `${endpoint}\u0001${model}\u0001${channelId}`;
  let children = settledChildren.get(key);
  if (!children) {
    children = {
      duration: relayDuration.child(endpoint, model),
      firstToken: firstToken.child(endpoint, model),
      quota: quotaConsumed.child(model, String(channelId)),
    };
    settledChildren.set(key, children);
  }
  relayDuration.observe(children.duration, seconds);
  if (firstTokenSeconds !== undefined) firstToken.observe(children.firstToken, firstTokenSeconds);
  if (quota > 0) children.quota.value += quota;
}

export function countBillingAnomaly(channelId: number, uncollected: number, overLimit: boolean): void {
  if (uncollected > 0) quotaUncollected.child(String(channelId)).value += uncollected;
  if (overLimit) completionsOverLimit.child(String(channelId)).value++;
}

function failureClass(failure: UpstreamFailure): string {
  if (failure.kind !== "status") return failure.kind;
  if (failure.status === 429) return "rate_limited";
  if (failure.status === 401 || failure.status === 403) return "auth";
  return failure.status >= 500 ? "server_error" : "client_error";
}

export function countUpstreamFailure(failure: UpstreamFailure, channelId: number): void {
  upstreamErrors.child(failureClass(failure), String(channelId)).value++;
}

export function trackStream(): { end(): void } {
  streamsOpen++;
  let open = true;
  return {
    end() {
      if (open) streamsOpen--;
      open = false;
    },
  };
}

const ledgerSizes = ledgerBatchSize.child();
const ledgerTimes = ledgerCommit.child();

export function observeLedgerCommit(moves: number, seconds: number): void {
  ledgerBatchSize.observe(ledgerSizes, moves);
  ledgerCommit.observe(ledgerTimes, seconds);
}

export function registerCacheSize(cache: string, size: () => number): void {
  cacheSizes.sample(cache, size);
}

export function registerReservations(count: () => number, quota: () => number): void {
  reservations.sample("count", count);
  reservations.sample("quota", quota);
}

export function registerSharedStateHealth(kind: string, healthy: () => boolean): void {
  sharedHealth.sample(kind, () => (healthy() ? 1 : 0));
}

/** The scrape: Prometheus' text format and its content type. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const loaded = await prometheusRegistry();
  return { body: await loaded.metrics(), contentType: loaded.contentType };
}
