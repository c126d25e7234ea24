// A real SMTP server in the test process (smtp-server) that keeps every mail it receives, parsed
// with postal-mime, so suites can read what the gateway sent and follow codes and links in it.
// Plain SMTP on a loopback port (no STARTTLS); it can require a login to test SMTPAccount/Token.
//
//   const sink = await startSmtpSink();
//   await root.put("/api/option/", sink.options);        // SMTPServer/SMTPPort/... as {key, value}[]
//   const mail = await sink.waitForMail("alice@example.com");
//   sink.stop();
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = {
  to: string[];
  from: string;
  subject: string;
  html: string;
  /** The html with tags removed, for matching codes and sentences. */
  text: string;
  /** Every href in the html. */
  links: string[];
  parsed: Email;
};

export type SmtpSink = {
  port: number;
  mails: ReceivedMail[];
  /** Option changes that point the gateway at this server, for PUT /api/option/. */
  options: { key: string; value: string }[];
  /** Resolves with the first mail (already received or arriving later) sent to `to`. */
  waitForMail(to: string, options?: { timeoutMs?: number; since?: number }): Promise<ReceivedMail>;
  /** Mails sent to `to` so far. */
  mailsTo(to: string): ReceivedMail[];
  stop(): Promise<void>;
};

export async function startSmtpSink(options: { user?: string; password?: string; from?: string } = {}): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: options.user ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    authOptional: !options.user,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.password) return callback(null, { user: auth.username });
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        try {
          const parsed = await PostalMime.parse(Buffer.concat(chunks));
          const html = parsed.html ?? parsed.text ?? "";
          mails.push({
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            html,
            text: html.replace(/<[^>]+>/g, " ").replace(/&amp;/g, "&").replace(/\s+/g, " ").trim(),
            links: [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&")),
            parsed,
          });
          for (const wake of waiters) wake();
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  const mailsTo = (to: string) => mails.filter((mail) => mail.to.includes(to.toLowerCase()));
  return {
    port,
    mails,
    options: [
      { key: "SMTPServer", value: "127.0.0.1" },
      { key: "SMTPPort", value: String(port) },
      { key: "SMTPAccount", value: options.user ?? "" },
      { key: "SMTPToken", value: options.password ?? "" },
      { key: "SMTPFrom", value: options.from ?? "gateway@example.test" },
      { key: "SMTPSSLEnabled", value: "false" },
    ],
    mailsTo,
    async waitForMail(to, { timeoutMs = 10_000, since = 0 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mailsTo(to).slice(since)[0];
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms (received: ${mails.map((mail) => mail.to.join(",")).join("; ") || "none"})`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
