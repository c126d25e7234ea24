// Secret-redaction canaries (plan L1, L2, L3, F5): recognisable secrets are seeded everywhere a
// secret lives (a channel key, the key an upstream echoes in its 401, a token key, also sent in
// `?key=`, a user's password, the session cookie, the system access token, the SMTP and Epay
// secrets), then the gateway is used the ways that print, log or answer: relay calls that
// succeed and fail, wrong passwords, options and status read as root and as nobody. None of
// the canaries appears in the server's output, in the log table, or in any answer captured
// (except the few answers whose purpose is to hand that secret to its owner).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ApiSession, newUserSession } from "../helpers/api-session.ts";
import { addChannel, addToken, postRelay, setOptions } from "../helpers/relay-world.ts";
import { reportFigures, startFaultWorld, type FaultWorld } from "../helpers/fault-world.ts";

let world: FaultWorld;
beforeAll(async () => {
  world = await startFaultWorld();
});
afterAll(() => world.stop());

test("seeded secrets never reach logs, stored logs or answers", async () => {
  const canaries = {
    channelKey: "sk-canary-channel-7f3a9c",
    echoedKey: "sk-proj-canaryEcho4d2e",
    password: "canary-password-8b1d",
    smtp: "canary-smtp-secret-51c0",
    epay: "canary-epay-key-9e77",
  } as Record<string, string>;
  const answers: string[] = [];
  const keep = async <T extends { body: unknown }>(result: Promise<T>) => {
    const done = await result;
    answers.push(JSON.stringify(done.body));
    return done;
  };

  await addChannel(world, { name: "canary-main", key: canaries.channelKey!, models: "gpt-4o-mini" });
  await addChannel(world, { name: "canary-failing", key: "sk-canary-failing", models: "gpt-4o", auto_ban: 0 });
  world.upstream.behave("sk-canary-failing", {
    status: 401,
    errorBody: {
      error: {
        message: `Incorrect API key provided: ${canaries.echoedKey}. See https://10.1.2.3/internal`,
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    },
  });
  await setOptions(world, { ServerAddress: "https://gw.example.com", SMTPToken: canaries.smtp!, EpayKey: canaries.epay! });
  const user = await newUserSession(world.server.url, "canary", canaries.password);
  await world.server.store.query("update users set quota = 100000000 where id = ?", user.userId);
  const token = await addToken(user, { name: "canary-token" });
  canaries.tokenKey = token.key;
  canaries.session = user.cookie.slice("session=".length);
  const accessToken = (await keep(user.get("/api/user/token"))).body.data as string;
  canaries.accessToken = accessToken;
  answers.pop(); // that answer hands the access token to its owner

  // Relay calls that succeed, fail upstream, and carry the key in the URL.
  for (const model of ["gpt-4o-mini", "gpt-4o"]) {
    const result = await postRelay(world, "/v1/chat/completions", token.key, { model, messages: [{ role: "user", content: "hi" }] });
    answers.push(result.text);
  }
  const stream = await fetch(`${world.server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer sk-${token.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "hi" }] }),
  });
  answers.push(await stream.text());
  const inUrl = await fetch(`${world.server.url}/v1beta/models/gpt-4o:generateContent?key=sk-${token.key}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
  });
  answers.push(await inUrl.text());
  answers.push(await (await fetch(`${world.server.url}/v1/models?key=sk-${token.key}`)).text());
  // A wrong and a right password; the access token used as a credential.
  await keep(new ApiSession(world.server.url).login("canary", `${canaries.password}x`));
  await keep(new ApiSession(world.server.url).login("canary", canaries.password!));
  answers.push(
    await (
      await fetch(`${world.server.url}/api/user/self`, { headers: { authorization: accessToken, "New-Api-User": String(user.userId) } })
    ).text(),
  );
  // Options and status as root and as nobody; the channel list as root.
  for (const path of ["/api/option/", "/api/status", "/api/channel/", "/api/log/", "/api/log/self"]) {
    await keep(world.root.get(path));
    answers.push(await (await fetch(world.server.url + path)).text());
  }
  await keep(user.get("/api/log/self"));

  const stored = (await world.server.store.query<{ content: string; other: string }>("select content, other from logs"))
    .map((row) => `${row.content} ${row.other}`)
    .join("\n");
  const places = { output: world.server.output(), storedLogs: stored, answers: answers.join("\n") };
  const found: string[] = [];
  for (const [name, secret] of Object.entries(canaries)) {
    for (const [place, text] of Object.entries(places)) if (text.includes(secret)) found.push(`${name} in ${place}`);
  }
  // The upstream's echoed key and its internal address never reach the client or the log.
  if (places.answers.includes("10.1.2.3") || stored.includes("10.1.2.3")) found.push("internal address");
  expect(found).toEqual([]);
  await world.check();
  reportFigures("redaction-canaries", {
    canaries: Object.keys(canaries).length,
    answersScanned: answers.length,
    outputBytes: places.output.length,
    storedLogs: stored.split("\n").length,
  });
});
