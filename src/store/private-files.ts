// The files that hold the store's contents (the SQLite store, its WAL and shared memory, backups,
// the copies taken before a migration) carry channel keys, token keys and the session secret:
// they are created readable by their owner alone (0600, folders 0700), whatever the umask, and a
// backup is never written through a symbolic link or over an existing file. SQLite gives the WAL
// and shared-memory files the mode of the database file, so a store created 0600 keeps them so.
import { chmodSync, closeSync, constants, existsSync, fchmodSync, lstatSync, mkdirSync, openSync, statSync } from "node:fs";
import { dirname } from "node:path";

export const privateFileMode = 0o600;
const privateFolderMode = 0o700;

/** Why a new private file could not be created where it was asked for. */
export class UnsafeTarget extends Error {}

/** Creates the folder and its missing parents, each created one 0700 (existing ones are left as they are). */
export function createPrivateFolder(path: string): void {
  const missing: string[] = [];
  for (let folder = path; !existsSync(folder) && folder !== dirname(folder); folder = dirname(folder)) missing.push(folder);
  if (missing.length === 0) return;
  mkdirSync(path, { recursive: true, mode: privateFolderMode });
  // The umask may have taken bits mkdir was given; the mode is set exactly.
  for (const folder of missing) chmodSync(folder, privateFolderMode);
}

/**
 * Creates a new, empty file readable by its owner alone, in a folder created as above. Refuses a
 * symbolic link (even one pointing nowhere: it would be written through) and an existing file.
 */
export function createPrivateFile(path: string): void {
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(path);
  } catch {
    existing = undefined;
  }
  if (existing?.isSymbolicLink()) throw new UnsafeTarget(`${path} is a symbolic link: give the path of a new file`);
  if (existing) throw new UnsafeTarget(`${path} already exists: give another file name`);
  createPrivateFolder(dirname(path));
  let fd: number;
  try {
    // O_EXCL with O_CREAT also refuses a link made in the meantime; O_NOFOLLOW says so twice.
    fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW, privateFileMode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UnsafeTarget(`${path} already exists: give another file name`);
    throw error;
  }
  try {
    fchmodSync(fd, privateFileMode);
  } finally {
    closeSync(fd);
  }
}

/**
 * An existing file (a store created before these rules) made readable by its owner alone.
 * Returns whether it was looser; a file this process may not change is left as it is.
 */
export function tightenToPrivate(path: string): boolean {
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) === 0) return false;
    chmodSync(path, mode & 0o700);
    return true;
  } catch {
    return false;
  }
}
