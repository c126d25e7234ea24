// Channel selection, a pure function over the cached index (new-api model/cache.go, made
// testable by an injected random source). Attempt r starts in the r-th priority tier (clamped to
// the lowest), so each retry steps down a tier; inside a tier the pick is weighted random with
// weight + 10 (weight-0 channels still get traffic). Channels already tried by this request are
// avoided while any other remains; when every channel was tried, one is reused.
export type Weighted = { id: number; weight: number };
export type Tier<C extends Weighted> = { priority: number; channels: C[] };

const weightSmoothing = 10;

function pickWeighted<C extends Weighted>(pool: C[], random: () => number): C {
  let total = 0;
  for (const channel of pool) total += Math.max(0, channel.weight) + weightSmoothing;
  let point = random() * total;
  for (const channel of pool) {
    point -= Math.max(0, channel.weight) + weightSmoothing;
    if (point < 0) return channel;
  }
  return pool[pool.length - 1]!;
}

export function selectChannel<C extends Weighted>(
  tiers: readonly Tier<C>[],
  attempt: number,
  tried: ReadonlySet<number>,
  random: () => number = Math.random,
): C | undefined {
  if (tiers.length === 0) return undefined;
  const start = Math.min(Math.max(attempt, 0), tiers.length - 1);
  const order: number[] = [start];
  for (let index = start + 1; index < tiers.length; index++) order.push(index);
  for (let index = start - 1; index >= 0; index--) order.push(index);
  for (const index of order) {
    const tier = tiers[index]!;
    const pool = tried.size ? tier.channels.filter((channel) => !tried.has(channel.id)) : tier.channels;
    if (pool.length > 0) return pickWeighted(pool, random);
  }
  return tiers[start]!.channels.length ? pickWeighted(tiers[start]!.channels, random) : undefined;
}
