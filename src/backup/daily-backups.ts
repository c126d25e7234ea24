// Daily backups of the SQLite store, switched on by the DailyBackupEnabled option (console
// settings or /api/option) or by BACKUP_DIR; the newest DailyBackupKeep (or BACKUP_KEEP) are
// kept. They go to BACKUP_DIR, or else to a `backups` folder beside the store. The job looks
// every hour (at start, and whenever one of the two options changes) whether the newest backup
// in the folder is a day old, so a restart neither skips a day nor takes two. The copy is made
// by a child process running `switchyard backup <file>`: VACUUM INTO is one long synchronous
// call, and the server's own thread must go on answering meanwhile.
import { readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Config } from "../config.ts";
import type { Job } from "../jobs/job.ts";
import { logger } from "../logger.ts";
import { onOptionsChanged, optionBool, optionNumber } from "../services/options/options.ts";
import { backupFileName, backupNamePattern } from "./sqlite-backup.ts";

const day = 24 * 3600 * 1000;
/** A little early rather than a little late: hourly checks drift by the time a backup takes. */
const dueAfter = day - 10 * 60 * 1000;

function backupsIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => backupNamePattern.test(name))
      .sort();
  } catch {
    return [];
  }
}

/** The command that runs this program's own `backup`: the executable itself, or bun with main.ts. */
function backupCommand(file: string): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.startsWith("B:/~BUN/");
  return compiled ? [process.execPath, "backup", file] : [process.execPath, join(import.meta.dir, "..", "main.ts"), "backup", file];
}

/** Where and how many, or undefined while daily backups are off (or the store is PostgreSQL). */
function dailyBackupPlan(config: Config): { dir: string; keep: number } | undefined {
  if (config.store.dialect !== "sqlite") return undefined;
  if (!config.backup.dir && !optionBool("DailyBackupEnabled")) return undefined;
  return {
    dir: config.backup.dir ?? join(dirname(config.store.path), "backups"),
    keep: config.backup.keep ?? optionNumber("DailyBackupKeep"),
  };
}

async function backUpIfDueNow(config: Config, now: Date): Promise<void> {
  const plan = dailyBackupPlan(config);
  if (!plan) return;
  const newest = backupsIn(plan.dir).at(-1);
  if (!newest || now.getTime() - statSync(join(plan.dir, newest)).mtimeMs >= dueAfter) {
    // The backup command creates the folder when it is missing.
    const file = join(plan.dir, backupFileName(now));
    const child = Bun.spawn({ cmd: backupCommand(file), env: process.env, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, exitCode] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    if (exitCode !== 0) {
      logger.error("daily backup failed", { file, output: (stderr || stdout).trim() });
      return;
    }
    logger.info("daily backup written", { file: stdout.trim() });
  }
  // Also when nothing was due: a lowered retention count applies at once.
  const kept = backupsIn(plan.dir);
  for (const old of kept.slice(0, Math.max(0, kept.length - plan.keep))) rmSync(join(plan.dir, old), { force: true });
}

/** One check at a time: the hourly tick and an option change never take two backups. */
let queue: Promise<void> = Promise.resolve();
function backUpIfDue(config: Config, now?: Date): Promise<void> {
  const check = queue.then(() => backUpIfDueNow(config, now ?? new Date()));
  queue = check.catch(() => undefined);
  return check;
}

let watching = false;
function watchOptions(config: Config): void {
  if (watching) return;
  watching = true;
  onOptionsChanged((keys) => {
    if (keys.includes("DailyBackupEnabled") || keys.includes("DailyBackupKeep")) {
      backUpIfDue(config).catch((error) =>
        logger.error("daily backup failed", { error: error instanceof Error ? error.message : String(error) }),
      );
    }
  });
}

export const dailyBackupJob: Job = {
  name: "daily-backup",
  // PostgreSQL is backed up with pg_dump; the check itself is one directory listing.
  everySeconds: (config) => (config.store.dialect === "sqlite" ? 3600 : 0),
  runAtStart: true,
  run: (config) => {
    watchOptions(config);
    return backUpIfDue(config);
  },
};
