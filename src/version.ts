// Version strings. The product version follows package.json; the console's credit line shows the
// version of the API surface we are compatible with, as the specification asks. An executable
// also knows its commit, target and build date (src/build/build-stamp.ts defines them).
import packageJson from "../package.json" with { type: "json" };

export const productVersion: string = packageJson.version;
export const compatibleVersion = "0.4.8.5.2";

// Replaced by literals in an executable (bun build --define); undeclared when run from source.
declare const SWITCHYARD_COMMIT: string | undefined;
declare const SWITCHYARD_BUILT_AT: string | undefined;
declare const SWITCHYARD_TARGET: string | undefined;

export type BuildInfo = { commit: string; target: string; builtAt: string };

const buildInfo: BuildInfo | undefined =
  typeof SWITCHYARD_COMMIT === "string" && typeof SWITCHYARD_BUILT_AT === "string" && typeof SWITCHYARD_TARGET === "string"
    ? { commit: SWITCHYARD_COMMIT, target: SWITCHYARD_TARGET, builtAt: SWITCHYARD_BUILT_AT }
    : undefined;

/** What `switchyard --version` prints: one line, the version first. */
export function versionLine(): string {
  if (!buildInfo) return `switchyard ${productVersion}, from source`;
  return `switchyard ${productVersion}, commit ${buildInfo.commit}, target ${buildInfo.target}, built ${buildInfo.builtAt}`;
}
