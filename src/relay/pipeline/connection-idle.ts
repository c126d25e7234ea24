// Who decides that a connection has been idle too long. Bun closes a connection on which no byte
// has moved for `connectionIdleSeconds` (the server's idleTimeout): right for a whole answer the
// client does not take (it is dropped, and with it the memory it held), wrong for a stream, which
// may stay silent as long as STREAMING_TIMEOUT allows (a model thinking before it answers: Bun
// cut such streams at 30 s, and billed them as clients that left). So a stream turns Bun's
// timer off for its request and keeps its own two: the upstream's silence (the call's deadline)
// and the client's (respond-stream.ts); when the client has read nothing for that long, the
// stream asks Bun to drop the connection. A stream that ends normally gives the connection its
// idle timer back, for the keep-alive wait that follows.

/** The server's idle timeout (server.ts passes it to Bun; Elysia's default too). */
export const connectionIdleSeconds = 30;

/** What Bun's server offers for this (`server.timeout(request, seconds)`, 0 = never). */
export type IdleTimeoutServer = { timeout(request: Request, seconds: number): void };

export type ConnectionIdle = {
  /** The stream keeps its own timers: Bun's is off for this request. */
  streaming(): void;
  /** The answer ends here: the connection's idle timer is back. */
  done(): void;
  /** The client reads nothing: Bun drops the connection at its next check. */
  drop(): void;
};

const nothing: ConnectionIdle = { streaming() {}, done() {}, drop() {} };

/** One small object per request (methods on the prototype, no closures: every request makes one). */
class ServerTimer implements ConnectionIdle {
  constructor(
    private readonly server: IdleTimeoutServer,
    private readonly request: Request,
  ) {}
  private set(seconds: number): void {
    try {
      this.server.timeout(this.request, seconds);
    } catch {
      // The connection is already gone: nothing to time.
    }
  }
  streaming(): void {
    this.set(0);
  }
  done(): void {
    this.set(connectionIdleSeconds);
  }
  drop(): void {
    this.set(1);
  }
}

export function connectionIdle(server: IdleTimeoutServer | undefined, request: Request): ConnectionIdle {
  return server ? new ServerTimer(server, request) : nothing;
}
