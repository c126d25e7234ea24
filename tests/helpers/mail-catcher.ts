// A real SMTP server in the test process (smtp-server) that keeps every message it receives,
// parsed (postal-mime), so a test can read what the gateway sent.
import PostalMime from "postal-mime";
import { SMTPServer } from "smtp-server";

export type CaughtMail = { to: string[]; from: string; subject: string; html: string; text: string };

export type MailCatcher = {
  port: number;
  messages: CaughtMail[];
  /** Resolves when `count` messages arrived (or rejects after the timeout). */
  waitFor(count: number, timeoutMs?: number): Promise<CaughtMail[]>;
  close(): Promise<void>;
};

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CaughtMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const mail = await PostalMime.parse(Buffer.concat(chunks));
        messages.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          from: mail.from?.address ?? "",
          subject: mail.subject ?? "",
          html: mail.html ?? "",
          text: mail.text ?? "",
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    messages,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mails, got ${messages.length}`);
        await Bun.sleep(20);
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
