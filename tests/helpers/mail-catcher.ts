// A real SMTP server in the test process (smtp-server) that keeps every message it receives,
// parsed (postal-mime), so a test can read what the gateway sent and follow codes and links in
// it. Plain SMTP on a loopback port (no STARTTLS); it can require a login, to test SMTPAccount
// and SMTPToken.
//
//   const mail = await startMailCatcher();
//   await root.put("/api/option/", mail.options);        // points the gateway at it
//   const message = await mail.waitForMail("alice@example.com");
//   await mail.close();
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type CaughtMail = {
  to: string[];
  from: string;
  subject: string;
  html: string;
  text: string;
  /** The text part, or else the html without tags: for matching codes and sentences. */
  bodyText: string;
  /** Every href in the html. */
  links: string[];
};

export type MailCatcher = {
  port: number;
  messages: CaughtMail[];
  /** Option changes (for PUT /api/option/) that make the gateway send through this server. */
  options: { key: string; value: string }[];
  /** Resolves when `count` messages arrived (or rejects after the timeout). */
  waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
  /** Messages sent to one address so far. */
  mailsTo(to: string): CaughtMail[];
  /** The next message to `to` after the first `since` ones (already here or arriving later). */
  waitForMail(to: string, options?: { since?: number; timeoutMs?: number }): Promise<CaughtMail>;
  close(): Promise<void>;
};

function plainText(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

export async function startMailCatcher(login: { user?: string; password?: string; from?: string } = {}): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: !login.user,
    allowInsecureAuth: true,
    disabledCommands: login.user ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.password) return callback(null, { user: auth.username });
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const mail = await PostalMime.parse(Buffer.concat(chunks));
        const html = mail.html ?? "";
        messages.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          from: mail.from?.address ?? "",
          subject: mail.subject ?? "",
          html,
          text: mail.text ?? "",
          bodyText: mail.text || plainText(html),
          links: [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&")),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const mailsTo = (to: string) => messages.filter((message) => message.to.some((address) => address.toLowerCase() === to.toLowerCase()));
  return {
    port,
    messages,
    options: [
      { key: "SMTPServer", value: "127.0.0.1" },
      { key: "SMTPPort", value: String(port) },
      { key: "SMTPAccount", value: login.user ?? "" },
      { key: "SMTPToken", value: login.password ?? "" },
      { key: "SMTPFrom", value: login.from ?? "gateway@example.test" },
      { key: "SMTPSSLEnabled", value: "false" },
    ],
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${messages.length}`);
        await Bun.sleep(20);
      }
      return messages;
    },
    mailsTo,
    async waitForMail(to, { since = 0, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mailsTo(to)[since];
        if (found) return found;
        if (Date.now() > deadline)
          throw new Error(`no mail to ${to} within ${timeoutMs} ms (got: ${messages.map((m) => m.to.join(",")).join("; ") || "none"})`);
        await Bun.sleep(20);
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
