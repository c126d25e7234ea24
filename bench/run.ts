// `npm run bench`: every benchmark of the project, each writing its own section of
// docs/PERFORMANCE.md. Run one with `npm run bench -- startup`.
import { benchClaudeConversion } from "./claude-conversion.ts";
import { benchCluster } from "./cluster.ts";
import { benchMetricsHooks } from "./metrics-hooks.ts";
import { benchPageWeights } from "./page-weights.ts";
import { benchPages } from "./pages.ts";
import { benchRelay } from "./relay.ts";
import { benchStartup } from "./startup.ts";
import { benchTransferSizes } from "./transfer-sizes.ts";

const benchmarks: Record<string, () => Promise<unknown>> = {
  startup: benchStartup,
  relay: benchRelay,
  pages: benchPages,
  weights: benchPageWeights,
  transfer: benchTransferSizes,
  claude: benchClaudeConversion,
  metrics: benchMetricsHooks,
  cluster: benchCluster,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(benchmarks)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`== ${name}`);
  console.log(await run());
}
