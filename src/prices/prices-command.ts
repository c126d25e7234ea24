// `switchyard prices sync <url> [--apply]`: the settings page's price sync from the command line.
// It opens the store and the shared state like the server (so an applied change is announced to
// instances sharing Redis; others reload their options within SYNC_FREQUENCY), prints every price
// the document would change, and writes them only with --apply. A refused URL or document is one
// line on standard error and exit code 1, with nothing written.
import { openSharedState } from "../cache/open-shared-state.ts";
import type { Config } from "../config.ts";
import { isAppError } from "../errors/app-error.ts";
import { trustOutboundHosts } from "../http/outbound-url.ts";
import { translator } from "../i18n/i18n.ts";
import { loadOptions } from "../services/options/options.ts";
import { syncPrices, type PriceSyncResult } from "../services/pricing/price-sync.ts";
import { closeStore, openStore } from "../store/client.ts";
import type { PricesArguments } from "../tool-arguments.ts";
import { describePrice } from "./price-text.ts";

const english = translator("en");

const formatNames: Record<PriceSyncResult["format"], string> = {
  switchyard: "Switchyard price list",
  "new-api-ratio-config": "new-api ratio_config",
  "new-api-pricing": "new-api pricing list",
};

function describeSync(result: PriceSyncResult): string {
  const lines = [`${formatNames[result.format]} from ${result.url}: ${result.models} models`];
  for (const source of result.sources)
    if (source.source || source.as_of) lines.push(`  source: ${source.source ?? "-"} (${source.as_of ?? "undated"})`);
  if (result.ignored.length > 0) lines.push(`  ignored fields: ${result.ignored.join(", ")}`);
  for (const change of result.changes) {
    lines.push(`${change.before ? "~" : "+"} ${change.model}`);
    if (change.before) lines.push(`    before: ${describePrice(change.before)}`);
    lines.push(`    after:  ${describePrice(change.after)}`);
  }
  lines.push(`${result.changes.length} to change, ${result.unchanged} unchanged`);
  lines.push(
    result.applied
      ? "applied"
      : result.changes.length > 0
        ? "nothing written: run again with --apply to write these prices"
        : "nothing to write",
  );
  return lines.join("\n");
}

/** The audit trail names the command line (no account signs in there) as the one who synced. */
const commandLineActor = { id: 0, name: "switchyard prices", address: "command line" };

export async function pricesCommand(config: Config, request: PricesArguments): Promise<number> {
  trustOutboundHosts(config.outboundAllowedHosts);
  await openStore(config.store);
  const shared = await openSharedState(config.redisUrl, config.redisPrefix, config.redisTimeoutMs);
  try {
    await loadOptions();
    console.log(describeSync(await syncPrices({ url: request.url, apply: request.apply }, commandLineActor)));
    return 0;
  } catch (error) {
    const message = isAppError(error)
      ? english(error.messageKey, error.params)
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
    console.error(`switchyard prices: ${message}`);
    return 1;
  } finally {
    await shared.close().catch(() => undefined);
    await closeStore();
  }
}
