// Debian packages the suites need (Chromium, qemu-user), installed when missing. The machine is
// shared: another apt-get may hold the lock (waited for), or may have been killed mid-install,
// which leaves dpkg "interrupted" and refuses every later install until it is configured.
import { existsSync } from "node:fs";

const run = (cmd: string[]) => Bun.spawnSync({ cmd, stdout: "inherit", stderr: "inherit" }).exitCode === 0;
const apt = (...args: string[]) => run(["apt-get", "-o", "DPkg::Lock::Timeout=600", ...args]);

/** Installs `packages` unless `installedFile` exists; throws with the command to run by hand. */
export function ensureDebianPackages(packages: string[], installedFile: string): void {
  if (packages.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing Debian packages ${packages.join(", ")}: apt-get install -y ${packages.join(" ")}`);
  }
  const install = () => apt("install", "-y", "--no-install-recommends", ...packages);
  const installed =
    install() ||
    // An install interrupted earlier: finish it first.
    (run(["dpkg", "--force-confold", "--configure", "-a"]) && install()) ||
    // A machine whose package lists were never fetched knows no package yet.
    (apt("update") && install());
  if (!installed || !existsSync(installedFile)) throw new Error(`could not install ${packages.join(", ")} with apt-get`);
}
