// `npm run dev`: serve with automatic restarts. Rebuilds the console assets when their sources
// change and restarts the server when server code changes.
import { watch } from "node:fs";
import { join } from "node:path";
import { buildAssets } from "./build-assets.ts";

const root = join(import.meta.dir, "..", "..");
let server: Bun.Subprocess | undefined;
let pending: Timer | undefined;

function startServer() {
  server = Bun.spawn({
    cmd: [process.execPath, join(root, "src", "main.ts")],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
    env: process.env,
  });
}

async function restart(rebuild: boolean) {
  if (rebuild) {
    try {
      await buildAssets();
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      return;
    }
  }
  server?.kill("SIGTERM");
  await server?.exited;
  startServer();
}

function schedule(rebuild: boolean) {
  clearTimeout(pending);
  pending = setTimeout(() => void restart(rebuild), 150);
}

await buildAssets();
startServer();
for (const folder of ["src", "console-runtime", "islands", "public"]) {
  watch(join(root, folder), { recursive: true }, (_event, file) => {
    if (!file || file.endsWith(".generated.ts")) return;
    const assetSource = folder !== "src" || file.startsWith("console") || file.startsWith("i18n");
    schedule(assetSource);
  });
}
console.log("dev: watching src/, console-runtime/, islands/ and public/");
