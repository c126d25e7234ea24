// Environment and command line -> one typed, validated configuration, read once at start.
// Everything the process needs from its surroundings is here; nothing else reads process.env.
import { hostname } from "node:os";
import { z } from "zod";

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
  REDIS_CONN_STRING: optionalString.refine(
    (v) => v === undefined || /^rediss?:\/\//.test(v),
    "must be a redis:// or rediss:// URL",
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
  NODE_NAME: optionalString,
  CRITICAL_RATE_LIMIT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).default(20)),
  CRITICAL_RATE_LIMIT_DURATION: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(1200)),
  GLOBAL_API_RATE_LIMIT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(0).default(360)),
  GLOBAL_API_RATE_LIMIT_DURATION: z.preprocess((v) => (v === "" ? undefined : v), seconds.default(180)),
  OUTBOUND_ALLOWED_HOSTS: optionalString,
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
  sessionSecret?: string;
  timezone?: string;
  trustProxy: boolean;
  relayTimeoutSeconds: number;
  streamingTimeoutSeconds: number;
  syncFrequencySeconds: number;
  nodeName: string;
  /** Login, registration, codes and OAuth: hits per client address per window. */
  criticalRateLimit: { count: number; seconds: number };
  /** Every other /api call; count 0 turns the limit off. */
  apiRateLimit: { count: number; seconds: number };
  /** Private hosts that user-chosen URLs (webhooks) may still reach (http/outbound-url.ts). */
  outboundAllowedHosts: string[];
  /** Test hook: shifts the clock of the core (clock.ts). */
  clockOffsetMs: number;
  /** Where the social sign-ins and the human check talk to (real services unless overridden). */
  endpoints: ProviderEndpoints;
};

export type ProviderEndpoints = {
  github: { authorize: string; token: string; user: string };
  linuxdo: { authorize: string; token: string; user: string };
  turnstileVerify: string;
};

export class ConfigError extends Error {}

export function readConfig(environment: Record<string, string | undefined>, portOverride?: number): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`invalid ${issue.path.join(".")}: ${issue.message}`);
  }
  const env = parsed.data;
  const dsn = env.SQL_DSN && env.SQL_DSN !== "local" ? env.SQL_DSN : undefined;
  return {
    port: portOverride ?? env.PORT,
    host: env.HOST,
    store: dsn ? { dialect: "pg", url: dsn } : { dialect: "sqlite", path: env.SQLITE_PATH },
    redisUrl: env.REDIS_CONN_STRING,
    sessionSecret: env.SESSION_SECRET,
    timezone: env.TZ,
    trustProxy: env.TRUST_PROXY,
    relayTimeoutSeconds: env.RELAY_TIMEOUT,
    streamingTimeoutSeconds: env.STREAMING_TIMEOUT,
    syncFrequencySeconds: env.SYNC_FREQUENCY,
    nodeName: env.NODE_NAME ?? `${hostname()}-${process.pid}`,
    criticalRateLimit: { count: env.CRITICAL_RATE_LIMIT, seconds: env.CRITICAL_RATE_LIMIT_DURATION },
    apiRateLimit: { count: env.GLOBAL_API_RATE_LIMIT, seconds: env.GLOBAL_API_RATE_LIMIT_DURATION },
    outboundAllowedHosts: (env.OUTBOUND_ALLOWED_HOSTS ?? "").split(",").map((host) => host.trim()).filter(Boolean),
    clockOffsetMs: env.SWITCHYARD_CLOCK_OFFSET_MS,
    endpoints: {
      github: { authorize: env.GITHUB_OAUTH_AUTHORIZE_URL, token: env.GITHUB_OAUTH_TOKEN_URL, user: env.GITHUB_USER_URL },
      linuxdo: { authorize: env.LINUXDO_OAUTH_AUTHORIZE_URL, token: env.LINUXDO_OAUTH_TOKEN_URL, user: env.LINUXDO_USER_URL },
      turnstileVerify: env.TURNSTILE_VERIFY_URL,
    },
  };
}

export type CommandLine =
  | { action: "serve"; port?: number }
  | { action: "version" }
  | { action: "help" };

export function readCommandLine(argv: string[]): CommandLine {
  let port: number | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--version" || argument === "-v") return { action: "version" };
    if (argument === "--help" || argument === "-h") return { action: "help" };
    if (argument === "--port" || argument.startsWith("--port=")) {
      const raw = argument === "--port" ? argv[++index] : argument.slice("--port=".length);
      const parsed = port_.safeParse(raw);
      if (!parsed.success) throw new ConfigError(`invalid --port: ${raw ?? "(missing)"} is not a port number`);
      port = parsed.data;
      continue;
    }
    throw new ConfigError(`unknown argument ${argument} (see --help)`);
  }
  return { action: "serve", port };
}

const port_ = z.string().regex(/^\d+$/).transform(Number).pipe(z.number().int().min(0).max(65535));

export const helpText = `Switchyard: AI model API gateway and management console

Usage: switchyard [--port N] [--version] [--help]

Environment:
  PORT                port to listen on (default 3000; --port wins)
  HOST                address to bind (default 0.0.0.0)
  SQLITE_PATH         SQLite database file (default ./data/switchyard.db)
  SQL_DSN             postgres:// URL: use PostgreSQL instead of SQLite
  REDIS_CONN_STRING   redis:// URL: share caches and limits between instances
  SESSION_SECRET      cookie signing secret (generated and stored when unset)
  TZ                  time zone for dates shown in the console
  TRUST_PROXY         true: take client addresses from X-Forwarded-For
  RELAY_TIMEOUT       seconds before an upstream call is abandoned (0 = never)
  STREAMING_TIMEOUT   seconds a stream may stay silent (default 300)
  SYNC_FREQUENCY      seconds between cache resyncs with the store (default 60)
  CRITICAL_RATE_LIMIT login/registration attempts per address per window (default 20)
  CRITICAL_RATE_LIMIT_DURATION  that window in seconds (default 1200)
  GLOBAL_API_RATE_LIMIT         /api calls per address per window (default 360, 0 = off)
  GLOBAL_API_RATE_LIMIT_DURATION  that window in seconds (default 180)
  GITHUB_OAUTH_AUTHORIZE_URL, GITHUB_OAUTH_TOKEN_URL, GITHUB_USER_URL
  LINUXDO_OAUTH_AUTHORIZE_URL, LINUXDO_OAUTH_TOKEN_URL, LINUXDO_USER_URL
  TURNSTILE_VERIFY_URL  provider endpoints (default: the real services)
  OUTBOUND_ALLOWED_HOSTS  comma-separated private hosts webhooks may reach (default none)
`;
