// The environment of a test instance that shares the test Redis with others: a key prefix of its
// own, so marks and locks of other runs sharing the Redis do not count, and a command timeout far
// above a loaded machine's pauses. With the default 1 s a busy CI machine could declare Redis away
// for a moment, and a test of exact shared counts would become a test of degraded mode. The
// outage tests (outage-world.ts) keep the default: the timeout is what they test.
export function sharedRedisEnv(prefix = "switchyard-test"): Record<string, string> {
  return {
    REDIS_CONN_STRING: process.env.TEST_REDIS_URL!,
    REDIS_KEY_PREFIX: `${prefix}-${crypto.randomUUID()}:`,
    REDIS_TIMEOUT_MS: "10000",
  };
}
