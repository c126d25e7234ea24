// The release under test (`npm run release`, src/build/build-release.ts): TEST_RELEASE_DIR when
// `npm test` built it for the run (tests/run.ts), else built here, and reused either way while
// the source is unchanged. Also: Debian's qemu-user and the arm64 C library to run the arm64
// file on this x64 machine, installed when missing as the browser suites install Chromium.
import { existsSync } from "node:fs";
import { buildRelease } from "../../src/build/build-release.ts";
import { ensureDebianPackages } from "./apt-install.ts";

let built: Promise<string> | undefined;

export async function releaseFolder(): Promise<string> {
  const given = process.env.TEST_RELEASE_DIR;
  if (given) return given;
  built ??= buildRelease({ reuse: true }).then((release) => release.folder);
  return built;
}

export const qemuAarch64 = process.env.QEMU_AARCH64 ?? "/usr/bin/qemu-aarch64";
/** Where libc6-arm64-cross puts the arm64 loader and C library: qemu's -L. */
export const arm64Sysroot = process.env.ARM64_SYSROOT ?? "/usr/aarch64-linux-gnu";

export function ensureQemu(): void {
  const missing = [
    !existsSync(qemuAarch64) && "qemu-user",
    !existsSync(`${arm64Sysroot}/lib/ld-linux-aarch64.so.1`) && "libc6-arm64-cross",
  ].filter((name): name is string => Boolean(name));
  ensureDebianPackages(missing, qemuAarch64);
}
