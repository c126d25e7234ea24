// Environment -> one typed, validated configuration, read once at start (the command line is
// command-line.ts).
// Everything the process needs from its surroundings is here; nothing else reads process.env.
import { hostname } from "node:os";
import { z } from "zod";
import { ConfigError } from "./config-error.ts";

/** Empty strings count as unset, so `FOO=` in a service file falls back to the default. */
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

const port = z.coerce
  .number({ message: "must be a number" })
  .int("must be an integer")
  .min(0, "must be between 0 and 65535")
  .max(65535, "must be between 0 and 65535");

const seconds = z.coerce.number({ message: "must be a number of seconds" }).min(0, "must not be negative");

const megabytes = z.coerce
  .number({ message: "must be a number of megabytes" })
  .positive("must be above 0")
  .max(4096, "must be at most 4096");

const booleanFlag = z
  .string()
  .optional()
  .transform((value) => ["1", "true", "yes", "on"].includes((value ?? "").trim().toLowerCase()));

/** A provider endpoint: an http(s) URL, overridable so tests can point it at a local imitation. */
const endpoint = (fallback: string) =>
  optionalString
    .refine((v) => v === undefined || /^https?:\/\/[^\s]+$/.test(v), "must be an http:// or https:// URL")
    .transform((v) => v ?? fallback);

const environmentSchema = z.object({
  PORT: z.preprocess((v) => (v === "" ? undefined : v), port.default(3000)),
  HOST: optionalString.transform((v) => v ?? "0.0.0.0"),
  SQLITE_PATH: optionalString.transform((v) => v ?? "./data/switchyard.db"),
  SQL_DSN: optionalString.refine(
    // "local" is what new-api deployments use to mean "the built-in SQLite"; keep accepting it.
    (v) => v === undefined || v === "local" || /^postgres(ql)?:\/\//.test(v),
    "must be a postgres:// URL (MySQL is not supported)",
  ),
  REDIS_CONN_STRING: optionalString.refine((v) => v === undefined || /^rediss?:\/\//.test(v), "must be a redis:// or rediss:// URL"),
  REDIS_KEY_PREFIX: optionalString,
  REDIS_TIMEOUT_MS: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce
      .number({ message: "must be a number of milliseconds" })
      .int("must be an integer")
      .min(50, "must be at least 50")
      .max(60_000, "must be at most 60000")
      .default(1000),
  ),
  SESSION_SECRET: optionalString.refine(
    // new-api's sample environment ships this placeholder; running with it would make every
    // installation's cookies forgeable by anyone who read the sample.
    (v) => v === undefined || (v !== "random_string" && v.length >= 16),
    "must be at least 16 characters and not the sample value random_string",
  ),
  TZ: optionalString,
  TRUST_PROXY: booleanFlag,
  RELAY_TIMEOUT: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(0)),
  STREAMING_TIMEOUT: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(300)),
  SYNC_FREQUENCY: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(60)),
  // new-api's switch for the drawing and music task poller: on unless set to a false value.
  UPDATE_TASK: z
    .string()
    .optional()
    .transform((value) => value === undefined || value.trim() === "" || ["1", "true", "yes", "on"].includes(value.trim().toLowerCase())),
  TASK_POLL_INTERVAL: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(15)),
  TASK_TIMEOUT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number({ message: "must be a number of seconds" }).int().min(60, "must be at least 60 seconds").default(3600),
  ),
  SHUTDOWN_GRACE_PERIOD: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(30)),
  NODE_NAME: optionalString,
  CRITICAL_RATE_LIMIT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).default(20)),
  CRITICAL_RATE_LIMIT_DURATION: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(1200)),
  GLOBAL_API_RATE_LIMIT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).default(360)),
  GLOBAL_API_RATE_LIMIT_DURATION: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(180)),
  OUTBOUND_ALLOWED_HOSTS: optionalString,
  MAX_REQUEST_BODY_MB: z.preprocess((v) => (v === "" ? undefined : v), megabytes.default(32)),
  MAX_AUDIO_UPLOAD_MB: z.preprocess((v) => (v === "" ? undefined : v), megabytes.default(25)),
  MAX_IMAGE_UPLOAD_MB: z.preprocess((v) => (v === "" ? undefined : v), megabytes.default(50)),
  MAX_API_BODY_KB: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number({ message: "must be a number of kilobytes" }).positive("must be above 0").default(1024),
  ),
  METRICS_ENABLED: booleanFlag,
  METRICS_TOKEN: optionalString.refine((v) => v === undefined || v.length >= 16, "must be at least 16 characters"),
  BACKUP_DIR: optionalString,
  BACKUP_KEEP: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number({ message: "must be a number" }).int("must be an integer").min(1, "must be at least 1").optional(),
  ),
  SWITCHYARD_CLOCK_OFFSET_MS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().default(0)),
  GITHUB_OAUTH_AUTHORIZE_URL: endpoint("https://github.com/login/oauth/authorize"),
  GITHUB_OAUTH_TOKEN_URL: endpoint("https://github.com/login/oauth/access_token"),
  GITHUB_USER_URL: endpoint("https://api.github.com/user"),
  LINUXDO_OAUTH_AUTHORIZE_URL: endpoint("https://connect.linux.do/oauth2/authorize"),
  LINUXDO_OAUTH_TOKEN_URL: endpoint("https://connect.linux.do/oauth2/token"),
  LINUXDO_USER_URL: endpoint("https://connect.linux.do/api/user"),
  TURNSTILE_VERIFY_URL: endpoint("https://challenges.cloudflare.com/turnstile/v0/siteverify"),
});

export type Config = {
  port: number;
  host: string;
  store: { dialect: "sqlite"; path: string } | { dialect: "pg"; url: string };
  redisUrl?: string;
  /** Prefix of every Redis key (and channel), so several gateways can share one Redis. */
  redisPrefix: string;
  /** A Redis command with no answer by then fails, and the instance runs degraded until Redis answers. */
  redisTimeoutMs: number;
  sessionSecret?: string;
  timezone?: string;
  trustProxy: boolean;
  relayTimeoutSeconds: number;
  streamingTimeoutSeconds: number;
  syncFrequencySeconds: number;
  /** Seconds between polls of unfinished drawing and music tasks; 0 = no polling (UPDATE_TASK=false). */
  taskPollSeconds: number;
  /** A task still unfinished this long after its submission fails and is refunded. */
  taskTimeoutSeconds: number;
  /** On SIGTERM/SIGINT: how long streams in flight may still run before they are cut. */
  shutdownGraceSeconds: number;
  nodeName: string;
  /** Login, registration, codes and OAuth: hits per client address per window. */
  criticalRateLimit: { count: number; seconds: number };
  /** Every other /api call; count 0 turns the limit off. */
  apiRateLimit: { count: number; seconds: number };
  /** Largest request bodies, in bytes (http/body-limits.ts says which applies where). */
  bodyLimits: BodyLimits;
  /** Private hosts that user-chosen URLs (webhooks) may still reach (http/outbound-url.ts). */
  outboundAllowedHosts: string[];
  /** Test hook: shifts the clock of the core (clock.ts). */
  clockOffsetMs: number;
  /**
   * GET /metrics (Prometheus) switched on from the environment, with its bearer token. The
   * MetricsEnabled option switches it on from the console too, with its own token.
   */
  metrics: { enabled: false } | { enabled: true; token: string };
  /**
   * Daily SQLite backups. BACKUP_DIR both switches them on (as the DailyBackupEnabled option
   * does) and chooses the folder; BACKUP_KEEP, when set, overrides the DailyBackupKeep option.
   */
  backup: { dir?: string; keep?: number };
  /** Where the social sign-ins and the human check talk to (real services unless overridden). */
  endpoints: ProviderEndpoints;
};

export type BodyLimits = {
  /** JSON bodies of the relay (chat, embeddings, images, speech...) and the playground. */
  relayJson: number;
  /** Audio files for transcription and translation (OpenAI's own limit is 25 MB). */
  audioUpload: number;
  /** Images for /v1/images/edits. */
  imageUpload: number;
  /** /api and the console. */
  api: number;
};

export type ProviderEndpoints = {
  github: { authorize: string; token: string; user: string };
  linuxdo: { authorize: string; token: string; user: string };
  turnstileVerify: string;
};

export { ConfigError };

export function readConfig(environment: Record<string, string | undefined>, portOverride?: number): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid ${issue.path.join(".")}: ${issue.message}`);
  }
  const env = parsed.data;
  if (env.METRICS_ENABLED && !env.METRICS_TOKEN) {
    throw new ConfigError("invalid METRICS_TOKEN: must be set (16 characters or more) when METRICS_ENABLED is true");
  }
  const dsn = env.SQL_DSN && env.SQL_DSN !== "local" ? env.SQL_DSN : undefined;
  return {
    port: portOverride ?? env.PORT,
    host: env.HOST,
    store: dsn ? { dialect: "pg", url: dsn } : { dialect: "sqlite", path: env.SQLITE_PATH },
    redisUrl: env.REDIS_CONN_STRING,
    redisPrefix: env.REDIS_KEY_PREFIX ?? "switchyard:",
    redisTimeoutMs: env.REDIS_TIMEOUT_MS,
    sessionSecret: env.SESSION_SECRET,
    timezone: env.TZ,
    trustProxy: env.TRUST_PROXY,
    relayTimeoutSeconds: env.RELAY_TIMEOUT,
    streamingTimeoutSeconds: env.STREAMING_TIMEOUT,
    syncFrequencySeconds: env.SYNC_FREQUENCY,
    taskPollSeconds: env.UPDATE_TASK ? env.TASK_POLL_INTERVAL : 0,
    taskTimeoutSeconds: env.TASK_TIMEOUT,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_PERIOD,
    nodeName: env.NODE_NAME ?? `${hostname()}-${process.pid}`,
    criticalRateLimit: { count: env.CRITICAL_RATE_LIMIT, seconds: env.CRITICAL_RATE_LIMIT_DURATION },
    apiRateLimit: { count: env.GLOBAL_API_RATE_LIMIT, seconds: env.GLOBAL_API_RATE_LIMIT_DURATION },
    bodyLimits: {
      relayJson: Math.round(env.MAX_REQUEST_BODY_MB * 1024 * 1024),
      audioUpload: Math.round(env.MAX_AUDIO_UPLOAD_MB * 1024 * 1024),
      imageUpload: Math.round(env.MAX_IMAGE_UPLOAD_MB * 1024 * 1024),
      api: Math.round(env.MAX_API_BODY_KB * 1024),
    },
    outboundAllowedHosts: (env.OUTBOUND_ALLOWED_HOSTS ?? "")
      .split(",")
      .map((host) => host.trim())
      .filter(Boolean),
    clockOffsetMs: env.SWITCHYARD_CLOCK_OFFSET_MS,
    metrics: env.METRICS_ENABLED ? { enabled: true, token: env.METRICS_TOKEN! } : { enabled: false },
    backup: { dir: env.BACKUP_DIR, keep: env.BACKUP_KEEP },
    endpoints: {
      github: { authorize: env.GITHUB_OAUTH_AUTHORIZE_URL, token: env.GITHUB_OAUTH_TOKEN_URL, user: env.GITHUB_USER_URL },
      linuxdo: { authorize: env.LINUXDO_OAUTH_AUTHORIZE_URL, token: env.LINUXDO_OAUTH_TOKEN_URL, user: env.LINUXDO_USER_URL },
      turnstileVerify: env.TURNSTILE_VERIFY_URL,
    },
  };
}
