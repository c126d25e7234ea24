// Channel tests (GET /api/channel/test/{id}, GET /api/channel/test, as new-api's): a minimal
// call through the channel's adaptor, the same way the relay would send it (drawing and music
// channels: a free read of no task, tasks/task-channel-test.ts). The result updates
// the channel's response_time and test_time, writes a test log for user 1 (token name 模型测试,
// not charged), and applies the health rules: a failure that means a dead key or account, or an
// answer slower than ChannelDisableThreshold, disables the channel; a passing test re-enables one
// the relay disabled.
import { eq } from "drizzle-orm";
import { shared } from "../../cache/open-shared-state.ts";
import { nowSeconds } from "../../clock.ts";
import { AppError, invalid } from "../../errors/app-error.ts";
import { translator } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import { findChannel } from "../../services/channels/channel-queries.ts";
import { countCompletionTokens } from "../../services/billing/token-counter.ts";
import { LogType } from "../../services/logs/log-types.ts";
import { optionBool, optionNumber } from "../../services/options/options.ts";
import { db, t } from "../../store/client.ts";
import { findUser } from "../caches/user-cache.ts";
import { disableChannelAutomatically, enableChannelAutomatically, judgeChannelFailure } from "./channel-health.ts";
import { ChannelStatus, toChannelSnapshot, type ChannelRow, type ChannelSnapshot } from "./channel-snapshot.ts";
import { enableKeyAutomatically, judgeKeyFailure } from "./key-health.ts";
import type { Bytes, EndpointKind, RelayCall, UpstreamTarget } from "../providers/adaptor.ts";
import { keyIndexMessage } from "../../services/channels/channel-key-writes.ts";
import { channelKeysOf, isMultiKey, KeyStatus, keyStates, parseChannelInfo } from "../../services/channels/channel-keys.ts";
import { loadAdaptor } from "../providers/registry.ts";
import { exchangeWithChannel } from "../pipeline/attempt-channel.ts";
import { recordTestOutcome } from "./channel-test-outcome.ts";
import { probeTaskChannel, type TaskProbe } from "../tasks/task-channel-test.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";

export type ChannelTestResult = { success: boolean; message: string; timeSeconds: number };

const testTokenName = "模型测试";
const testTimeoutMs = 60_000;

/** The model a test uses: the asked one, else the channel's test model, else its first model. */
function testModelOf(channel: ChannelSnapshot, model?: string): string {
  return model?.trim() || channel.testModel || channel.models[0] || "gpt-4o-mini";
}

const testBodies: Partial<Record<EndpointKind, (model: string) => Record<string, unknown>>> = {
  embeddings: (model) => ({ model, input: ["hello world"] }),
  rerank: (model) => ({ model, query: "hi", documents: ["hello world"] }),
};

/** Which endpoint tests a model: embedding and rerank models cannot chat. */
function testEndpointOf(model: string): EndpointKind {
  if (/rerank/i.test(model)) return "rerank";
  return /embed|bge-|m3e/i.test(model) ? "embeddings" : "chat";
}

function testCall(endpoint: EndpointKind, model: string, upstreamModel: string): RelayCall {
  const json = testBodies[endpoint]?.(upstreamModel) ?? {
    model: upstreamModel,
    messages: [{ role: "user", content: "hi" }],
    max_tokens: 10,
  };
  const rawBody: Bytes = new TextEncoder().encode(JSON.stringify(json));
  return {
    endpoint,
    format: "openai",
    model,
    upstreamModel,
    stream: false,
    clientWantsUsage: false,
    json,
    form: null,
    rawBody,
    contentType: "application/json",
    countPromptTokens: () => 0,
    // max_tokens: 10 keeps a test cheap where the vendor takes a limit; it is no client's request.
    gatewayLimit: true,
  };
}

async function writeTestLog(
  channel: ChannelSnapshot,
  model: string,
  promptTokens: number,
  completionTokens: number,
  elapsedMs: number,
): Promise<void> {
  const root = await findUser(1);
  await db.insert(t.logs).values({
    user_id: 1,
    username: root?.username ?? "",
    created_at: nowSeconds(),
    type: LogType.consume,
    content: testTokenName,
    token_name: testTokenName,
    model_name: model,
    quota: 0,
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    use_time: Math.round(elapsedMs / 1000),
    channel_id: channel.id,
    channel_name: channel.name,
    other: JSON.stringify({ frt: elapsedMs, admin_info: { use_channel: [String(channel.id)] } }),
  });
}

function failureMessage(failure: UpstreamFailure): string {
  return failure.localMessage ? translator("zh")(failure.details.message, failure.localParams) : failure.details.message;
}

/**
 * Tests one channel; never throws for an upstream failure (it is the result, kept on the row).
 * A multi-key channel is tested with `keyIndex`, else with its first enabled key; then, when
 * AutomaticEnableChannelEnabled is on, each key the relay disabled is tried again so a passing
 * one comes back (the automatic re-test).
 */
export async function testChannel(channelId: number, model?: string, keyIndex?: number): Promise<ChannelTestResult> {
  const result = await runChannelTest(channelId, model, keyIndex);
  await recordTestOutcome(channelId, result.success ? undefined : result.message);
  if (keyIndex === undefined && optionBool("AutomaticEnableChannelEnabled")) {
    for (const index of await autoDisabledKeys(channelId)) {
      if (index === result.keyIndex) continue;
      await runChannelTest(channelId, model, index).catch((error) =>
        logger.warn("channel key re-test failed", { channel: channelId, key: index, error: String(error) }),
      );
    }
  }
  return result;
}

async function autoDisabledKeys(channelId: number): Promise<number[]> {
  const row = await findChannel(channelId);
  const info = parseChannelInfo(row.channel_info);
  if (!isMultiKey(info)) return [];
  return keyStates(info, channelKeysOf(row).length)
    .filter((state) => state.status === KeyStatus.autoDisabled)
    .map((state) => state.index);
}

/** The key a test uses: the one asked for, else the first enabled (the channel's own target). */
function testKeyOf(row: ChannelRow, channel: ChannelSnapshot, keyIndex?: number): { index?: number; target: UpstreamTarget } {
  if (!channel.keyPool) return { target: channel.target };
  const keys = channelKeysOf(row);
  if (keyIndex !== undefined) {
    if (!Number.isInteger(keyIndex) || keyIndex < 0 || keyIndex >= keys.length) throw invalid(keyIndexMessage);
    return { index: keyIndex, target: { ...channel.target, key: keys[keyIndex]! } };
  }
  const first = channel.keyPool.slots[0];
  if (first) return first;
  // Every key is disabled: the first one is tried (a pass brings it, and the channel, back).
  return { index: 0, target: { ...channel.target, key: keys[0] ?? "" } };
}

async function runChannelTest(channelId: number, model?: string, keyIndex?: number): Promise<ChannelTestResult & { keyIndex?: number }> {
  const row = await findChannel(channelId);
  const channel = toChannelSnapshot(row, await loadAdaptor(row.type));
  const key = testKeyOf(row, channel, keyIndex);
  const taskProbeStarted = performance.now();
  const probe = await probeTaskChannel(channel, key.target, testTimeoutMs);
  if (probe)
    return { ...(await settleTaskProbe(channel, probe, Math.round(performance.now() - taskProbeStarted), key.index)), keyIndex: key.index };
  const adaptor = channel.adaptor;
  if (!adaptor) return { success: false, message: translator("zh")("渠道类型暂不支持"), timeSeconds: 0 };
  const testModel = testModelOf(channel, model);
  const upstreamModel = channel.modelMapping?.[testModel] ?? testModel;
  const endpoint = testEndpointOf(testModel);
  const call = testCall(endpoint, testModel, upstreamModel);

  const started = performance.now();
  const attempt = await exchangeWithChannel(call, channel, { relayMs: testTimeoutMs, streamIdleMs: testTimeoutMs }, key.target);
  const elapsedMs = Math.round(performance.now() - started);
  await db.update(t.channels).set({ response_time: elapsedMs, test_time: nowSeconds() }).where(eq(t.channels.id, channel.id));

  let failure: UpstreamFailure | undefined;
  if (!attempt.ok) failure = attempt.failure;
  else if (attempt.kind === "json") {
    const converted = attempt.converted;
    const completion = converted.usage?.completion_tokens ?? countCompletionTokens(converted.output(), testModel);
    await writeTestLog(channel, testModel, converted.usage?.prompt_tokens ?? 0, completion, elapsedMs);
  }
  if (failure) {
    if (key.index === undefined) await judgeChannelFailure(channel, failure);
    else await judgeKeyFailure(channel, key.index, failure);
    return { success: false, message: failureMessage(failure), timeSeconds: elapsedMs / 1000, keyIndex: key.index };
  }
  return { ...(await passed(channel, elapsedMs, key.index)), keyIndex: key.index };
}

/**
 * A passing answer: still too slow disables the channel; in time re-enables a key and a channel
 * the relay disabled.
 */
async function passed(channel: ChannelSnapshot, elapsedMs: number, keyIndex?: number): Promise<ChannelTestResult> {
  const thresholdSeconds = optionNumber("ChannelDisableThreshold");
  if (thresholdSeconds > 0 && elapsedMs > thresholdSeconds * 1000) {
    const reason = translator("zh")("响应时间 {{seconds}}s 超过阈值 {{threshold}}s", {
      seconds: (elapsedMs / 1000).toFixed(2),
      threshold: thresholdSeconds,
    });
    await disableChannelAutomatically(channel, reason);
    return { success: false, message: reason, timeSeconds: elapsedMs / 1000 };
  }
  // A key the relay disabled comes back (and its channel, when that was its last key).
  const keyBack = keyIndex !== undefined && (await enableKeyAutomatically(channel.id, keyIndex));
  if (channel.status === ChannelStatus.autoDisabled && !keyBack) await enableChannelAutomatically(channel.id);
  return { success: true, message: "", timeSeconds: elapsedMs / 1000 };
}

/** A drawing or music channel's test: timed like the others; it writes no test log (no model was called). */
/** A drawing or music channel's probe, judged by the relay's rules like a chat test (per key on a multi-key channel). */
async function settleTaskProbe(
  channel: ChannelSnapshot,
  probe: TaskProbe,
  elapsedMs: number,
  keyIndex?: number,
): Promise<ChannelTestResult> {
  await db.update(t.channels).set({ response_time: elapsedMs, test_time: nowSeconds() }).where(eq(t.channels.id, channel.id));
  if (!probe.ok) {
    if (probe.failure && keyIndex === undefined) await judgeChannelFailure(channel, probe.failure);
    else if (probe.failure && keyIndex !== undefined) await judgeKeyFailure(channel, keyIndex, probe.failure);
    return { success: false, message: probe.message, timeSeconds: elapsedMs / 1000 };
  }
  return passed(channel, elapsedMs, keyIndex);
}

const testAllLock = "channel-test-all";
let runningHere = false;

/**
 * Tests every channel, one after another, in the background. One run at a time across all
 * instances: a second call while one runs is refused with 测试已在运行中. `wait` resolves when
 * the run is over (jobs and tests); otherwise it resolves once the run has started.
 */
export async function testAllChannels(options: { wait?: boolean } = {}): Promise<void> {
  if (runningHere || !(await shared.setIfAbsent(testAllLock, String(process.pid), 3600))) {
    throw new AppError("conflict", "测试已在运行中");
  }
  runningHere = true;
  const run = (async () => {
    try {
      const rows = await db.select({ id: t.channels.id }).from(t.channels);
      for (const row of rows) {
        // Disabled channels are tested too (new-api): the table shows their response time, and a
        // channel the relay disabled comes back when it passes.
        await testChannel(row.id).catch(async (error) => {
          logger.warn("channel test failed", { channel: row.id, error: String(error) });
          await recordTestOutcome(row.id, error instanceof Error ? error.message : String(error)).catch(() => undefined);
        });
      }
    } finally {
      runningHere = false;
      await shared.delete(testAllLock);
    }
  })();
  if (options.wait) await run;
  else run.catch(() => undefined);
}
