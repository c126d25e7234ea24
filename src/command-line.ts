// The command line: which action the process takes (serve, a tool, --version, --help) and its
// arguments. Kept apart from config.ts and free of zod, so the entry knows what to do (and may
// replace itself with execve, runtime-environment.ts) before any heavy module is evaluated.
import { ConfigError } from "./config-error.ts";
import {
  readBackupArguments,
  readImportArguments,
  readPricesArguments,
  type ImportArguments,
  type PricesArguments,
} from "./tool-arguments.ts";

export type CommandLine =
  | { action: "serve"; port?: number }
  | { action: "version" }
  | { action: "help" }
  | { action: "import"; request: ImportArguments }
  | { action: "backup"; file?: string }
  | { action: "prices"; request: PricesArguments };

export function readCommandLine(argv: string[]): CommandLine {
  if (argv[0] === "import") return { action: "import", request: readImportArguments(argv.slice(1)) };
  if (argv[0] === "backup") return { action: "backup", ...readBackupArguments(argv.slice(1)) };
  if (argv[0] === "prices") return { action: "prices", request: readPricesArguments(argv.slice(1)) };
  let port: number | undefined;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--version" || argument === "-v") return { action: "version" };
    if (argument === "--help" || argument === "-h") return { action: "help" };
    if (argument === "--port" || argument.startsWith("--port=")) {
      const raw = argument === "--port" ? argv[++index] : argument.slice("--port=".length);
      if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) > 65535)
        throw new ConfigError(`invalid --port: ${raw ?? "(missing)"} is not a port number`);
      port = Number(raw);
      continue;
    }
    throw new ConfigError(`unknown argument ${argument} (see --help)`);
  }
  return { action: "serve", port };
}

export const helpText = `Switchyard: AI model API gateway and management console

Usage: switchyard [--port N] [--version] [--help]
       switchyard import <source> [--dry-run] [--merge [--merge-options]] [--root-role=R] [--with-logs]
       switchyard backup [file]
       switchyard prices sync <url> [--apply]

Commands:
  (none)              serve the gateway and the console
  import <source>     copy a new-api (v0.4 or later) or one-api (v0.6) database into this store:
                      users with their passwords, tokens with their keys, channels, options,
                      redemption codes, top-ups and tasks, in one transaction. The source is a
                      SQLite file, a postgres:// URL or a mysql:// URL.
    --dry-run         print what would be imported and skipped, write nothing
    --merge           add to a store that already has data (ids are shifted past its own);
                      its options stay, the summary lists the source's that differ
    --merge-options   with --merge: take those options too (each checked like a console edit)
    --root-role=R     what a root account of the source becomes when the store has its root
                      already: common (default) or admin; a store never gets a second root
    --with-logs       import the usage logs too (in batches, with a progress bar)
  backup [file]       write a consistent copy of the SQLite store, also while it serves
                      (default: switchyard-backup-<time>.db beside the store)
  prices sync <url>   read a price list (Switchyard's format, or new-api's ratio_config or
                      pricing answer) from an https URL and print the prices it would change
    --apply           write those prices into the pricing options (running instances take
                      them within SYNC_FREQUENCY, at once when they share Redis)

Environment:
  PORT                port to listen on (default 3000; --port wins)
  HOST                address to bind (default 0.0.0.0)
  SQLITE_PATH         SQLite database file (default ./data/switchyard.db)
  SQL_DSN             postgres:// URL: use PostgreSQL instead of SQLite
  REDIS_CONN_STRING   redis:// URL: share caches and limits between instances
  REDIS_KEY_PREFIX    prefix of the Redis keys (default switchyard:), to share one Redis
  REDIS_TIMEOUT_MS    a Redis command unanswered by then fails over to degraded mode (default 1000)
  SESSION_SECRET      cookie signing secret (generated and stored when unset)
  TZ                  time zone for dates shown in the console
  TRUST_PROXY         true: take client addresses from X-Forwarded-For
  RELAY_TIMEOUT       seconds before an upstream call is abandoned (0 = never)
  STREAMING_TIMEOUT   seconds a stream may stay silent (default 300)
  SYNC_FREQUENCY      seconds between cache resyncs with the store (default 60)
  UPDATE_TASK         false: this instance never polls drawing and music tasks (default true)
  TASK_POLL_INTERVAL  seconds between polls of unfinished tasks (default 15)
  TASK_TIMEOUT        seconds after which an unfinished task fails and is refunded (default 3600)
  SHUTDOWN_GRACE_PERIOD  seconds streams may run on after SIGTERM/SIGINT before they are
                      cut with an error event (default 30); every request is settled first
  CRITICAL_RATE_LIMIT login/registration attempts per address per window (default 20)
  CRITICAL_RATE_LIMIT_DURATION  that window in seconds (default 1200)
  GLOBAL_API_RATE_LIMIT         /api calls per address per window (default 360, 0 = off)
  GLOBAL_API_RATE_LIMIT_DURATION  that window in seconds (default 180)
  GITHUB_OAUTH_AUTHORIZE_URL, GITHUB_OAUTH_TOKEN_URL, GITHUB_USER_URL
  LINUXDO_OAUTH_AUTHORIZE_URL, LINUXDO_OAUTH_TOKEN_URL, LINUXDO_USER_URL
  TURNSTILE_VERIFY_URL  provider endpoints (default: the real services)
  OUTBOUND_ALLOWED_HOSTS  comma-separated private hosts webhooks may reach (default none)
  METRICS_ENABLED     true: serve Prometheus metrics at GET /metrics (default false)
  METRICS_TOKEN       the bearer token /metrics requires (16 characters or more)
  BACKUP_DIR          folder for a daily backup of the SQLite store (default: no daily backup)
  BACKUP_KEEP         how many daily backups to keep (default 7)
`;
