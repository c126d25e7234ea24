// One Redis connection that survives outages (issue 18). Bun's client is used without its own
// reconnection and without its offline queue: this link owns both.
//
// - Commands fail fast: while the link is down a command throws RedisUnavailable at once, and a
//   command that gets no reply within `commandTimeoutMs` throws it too and takes the link down
//   (a Redis that accepts connections but never answers looks exactly like that).
// - The link reconnects forever, backing off from 50 ms to `maxBackoffMs` (500 ms, so instances
//   are back on Redis within a second of its return). A new attempt builds new clients, so a
//   client that gave up is never reused.
// - Every subscription is renewed on each new connection before the link counts as up.
// - A ping every second notices a connection that went silent while nothing else was sent.
import { RedisClient } from "bun";
import { logger } from "../logger.ts";

export class RedisUnavailable extends Error {
  constructor(reason: string) {
    super(`Redis is unavailable: ${reason}`);
  }
}

export type RedisLinkOptions = { commandTimeoutMs?: number; maxBackoffMs?: number; pingEveryMs?: number };

export type RedisLink = {
  healthy(): boolean;
  send(command: string, args: string[]): Promise<unknown>;
  /** Subscribes now (when up) and again after every reconnection. */
  subscribe(channel: string, handler: (message: string) => void): void;
  /** Called synchronously when the link goes down or comes back up. */
  onHealthChange(listener: (healthy: boolean) => void): void;
  close(): Promise<void>;
};

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: Timer | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisUnavailable(`${what} got no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Opens the link; resolves after the first attempt (connected or not: it keeps trying). */
export async function openRedisLink(url: string, options: RedisLinkOptions = {}): Promise<RedisLink> {
  const commandTimeoutMs = options.commandTimeoutMs ?? 1000;
  const maxBackoffMs = options.maxBackoffMs ?? 500;
  const channels = new Map<string, (message: string) => void>();
  const listeners: ((healthy: boolean) => void)[] = [];
  let client: RedisClient | undefined;
  let subscriber: RedisClient | undefined;
  let up = false;
  let closed = false;
  let reconnecting: Promise<void> | undefined;
  let wasDown = false;

  const clientOptions = { autoReconnect: false, enableOfflineQueue: false, connectionTimeout: commandTimeoutMs };
  const dispatch = (message: string, channel: string) => channels.get(channel)?.(message);

  const drop = () => {
    for (const old of [client, subscriber]) {
      if (!old) continue;
      old.onclose = null;
      try {
        old.close();
      } catch {
        // already closed
      }
    }
    client = subscriber = undefined;
  };

  const setHealth = (healthy: boolean) => {
    up = healthy;
    for (const listener of listeners) {
      try {
        listener(healthy);
      } catch (error) {
        logger.error("shared state: a health listener failed", { error: String(error) });
      }
    }
  };

  const lost = (reason: string) => {
    if (closed || !up) return;
    logger.warn("shared state: Redis is away; running degraded until it is back (see docs/ARCHITECTURE.md, Redis outages)", { reason });
    wasDown = true;
    drop();
    setHealth(false);
    void reconnect();
  };

  const attempt = async () => {
    const main = new RedisClient(url, clientOptions);
    const notices = new RedisClient(url, clientOptions);
    try {
      await withTimeout(main.connect(), commandTimeoutMs, "connect");
      await withTimeout(main.send("PING", []), commandTimeoutMs, "PING");
      await withTimeout(notices.connect(), commandTimeoutMs, "connect");
      if (channels.size > 0) await withTimeout(notices.subscribe([...channels.keys()], dispatch), commandTimeoutMs, "SUBSCRIBE");
    } catch (error) {
      for (const failed of [main, notices]) {
        try {
          failed.close();
        } catch {
          // never opened
        }
      }
      throw error;
    }
    client = main;
    subscriber = notices;
    main.onclose = notices.onclose = () => lost("connection closed");
  };

  const reconnect = (): Promise<void> =>
    (reconnecting ??= (async () => {
      let backoff = 50;
      while (!closed) {
        try {
          await attempt();
          if (closed) return drop();
          if (wasDown) logger.info("shared state: Redis is back; notices and shared counting resume");
          setHealth(true);
          return;
        } catch (error) {
          if (!wasDown) {
            wasDown = true;
            logger.warn("shared state: cannot reach Redis; running degraded and retrying", {
              error: String((error as Error)?.message ?? error),
            });
          }
          await Bun.sleep(backoff);
          backoff = Math.min(maxBackoffMs, backoff * 2);
        }
      }
    })().finally(() => (reconnecting = undefined)));

  const pinger = setInterval(() => {
    if (!up || !client || !subscriber) return;
    const main = client;
    const notices = subscriber;
    void Promise.all([main.send("PING", []), notices.ping()].map((ping) => withTimeout(ping, commandTimeoutMs, "PING"))).catch((error) => {
      if (client === main) lost(String((error as Error)?.message ?? error));
    });
  }, options.pingEveryMs ?? 1000);
  pinger.unref?.();

  // The first attempt only: a Redis away at start does not stop the server starting.
  await Promise.race([reconnect(), Bun.sleep(commandTimeoutMs * 2)]);

  return {
    healthy: () => up,
    async send(command, args) {
      const current = client;
      if (!up || !current) throw new RedisUnavailable("not connected");
      try {
        return await withTimeout(current.send(command, args), commandTimeoutMs, command);
      } catch (error) {
        // A reply error (NOSCRIPT, WRONGTYPE) leaves the connection as it was.
        if (error instanceof RedisUnavailable || !current.connected) {
          if (client === current) lost(String((error as Error)?.message ?? error));
          throw error instanceof RedisUnavailable ? error : new RedisUnavailable(String((error as Error)?.message ?? error));
        }
        throw error;
      }
    },
    subscribe(channel, handler) {
      channels.set(channel, handler);
      const notices = subscriber;
      if (up && notices) {
        void withTimeout(notices.subscribe(channel, dispatch), commandTimeoutMs, "SUBSCRIBE").catch((error) => {
          if (subscriber === notices) lost(String((error as Error)?.message ?? error));
        });
      }
    },
    onHealthChange(listener) {
      listeners.push(listener);
    },
    async close() {
      closed = true;
      clearInterval(pinger);
      up = false;
      drop();
    },
  };
}
