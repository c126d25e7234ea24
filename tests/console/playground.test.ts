// The playground's conversation in a real browser, at desktop (1366x800) and phone (390x844)
// sizes, in Chinese and English, against the real gateway and an OpenAI upstream imitation:
// answers as sanitised Markdown with highlighted code, copy buttons and folded reasoning; the
// numbers of each answer (tokens, cost by the site's prices, first token, speed); the system
// prompt and every parameter reaching the upstream; edit, copy, regenerate, delete; stop.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { step } from "../helpers/browser.ts";
import {
  allCombos,
  chatBodies,
  comboName,
  crossCombos,
  hideParameters,
  lastAnswer,
  openPlayground,
  otherCrossCombos,
  screenshots,
  scrollsSideways,
  send,
  setRange,
  showParameters,
  startPlaygroundWorld,
  type PlaygroundWorld,
} from "../helpers/playground-setup.ts";

let world: PlaygroundWorld;
const username = "player";

beforeAll(async () => {
  world = await startPlaygroundWorld(username);
});
afterAll(() => world?.stop());

const markdownAnswer = [
  "Here is **bold** and `inline`, with [a link](https://example.com).",
  "",
  "```python",
  "def hello(name):",
  '    return f"hi {name}"',
  "```",
  "",
  '<img src="x" onerror="window.__xss = 1"> <script>window.__xss = 2</script>',
  "",
  "- one",
  "- two",
].join("\n");
const pieces = markdownAnswer.split(/(?<= )/).length;

describe("answers", () => {
  for (const combo of allCombos) {
    test(`Markdown with highlighted code, a copy button, folded reasoning, and the answer's numbers (${comboName(combo)})`, async () => {
      world.upstream.behave("sk-pg-main", {
        content: markdownAnswer,
        chunks: pieces,
        reasoning: "First I think about names. ",
        promptTokens: 42,
        completionTokens: 120,
      });
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      await step(page, `pg-markdown-${comboName(combo)}`, async () => {
        await send(pg, "Say hello in Python");
        const answer = lastAnswer(page);
        await answer.waitFor();
        const markdown = answer.locator(".answer-markdown");
        expect(await markdown.locator("strong").textContent()).toBe("bold");
        expect(await markdown.locator(".code-block .hljs-keyword").first().textContent()).toBe("def");
        expect(await markdown.locator("a").getAttribute("rel")).toContain("noopener");
        // What a model writes cannot run in the page.
        expect(await markdown.locator("script").count()).toBe(0);
        expect(await markdown.locator("[onerror]").count()).toBe(0);
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
        // The reasoning is there, folded.
        const reasoning = answer.locator("details.reasoning");
        expect(await reasoning.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
        expect(await reasoning.locator("summary").textContent()).toBe(t.reasoning);
        await reasoning.locator("summary").click();
        await reasoning.getByText("First I think about names.").waitFor();
        // The code block's own copy button copies the code alone.
        await markdown.locator("[data-copy-code]").click();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('def hello(name):\n    return f"hi {name}"');
        // Tokens, cost at gpt-4o-mini's ratio 0.075: round((42 + 120 x 4) x 0.075) = 39 quota = $0.000078.
        const stats = await answer.locator("[data-stats]").textContent();
        expect(stats).toContain("gpt-4o-mini");
        expect(stats).toContain(combo.language === "zh" ? "42 输入 · 120 输出 tokens" : "42 in · 120 out tokens");
        expect(stats).toContain("$0.000078");
        expect(stats).toMatch(combo.language === "zh" ? /首字 \d+\.\d\d 秒/ : /First token \d+\.\d\d s/);
        expect(stats).toMatch(/\d+\.\d tokens\//);
        const [logged] = await world.server.store.query<{ quota: number; token_name: string }>(
          "select quota, token_name from logs where username = ? and type = 2 order by id desc limit 1",
          username,
        );
        expect([Number(logged!.quota), logged!.token_name]).toEqual([39, "playground-default"]);
        // The conversation fills the window: no fixed box, nothing sideways.
        const box = (await page.locator("[data-playground]").boundingBox())!;
        const height = page.viewportSize()!.height;
        expect(box.y + box.height).toBeLessThanOrEqual(height);
        expect(box.y + box.height).toBeGreaterThan(height - 40);
        expect(await scrollsSideways(page)).toBe(false);
        await screenshots(page, `playground-answer-${comboName(combo)}`);
      });
      await pg.close();
    }, 90_000);
  }
});

describe("the request", () => {
  for (const combo of crossCombos) {
    test(`the system prompt and every parameter reach the upstream; streaming off gives a whole answer (${comboName(combo)})`, async () => {
      world.upstream.behave("sk-pg-main", { content: "A whole answer.", promptTokens: 30, completionTokens: 8 });
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      await step(page, `pg-parameters-${comboName(combo)}`, async () => {
        await page.getByText(t.system, { exact: true }).click();
        await page.getByLabel(t.system, { exact: true }).fill("You are terse.");
        await showParameters(pg);
        const panel = page.locator("aside");
        await panel.getByRole("checkbox", { name: "top_p" }).check();
        await setRange(panel.getByRole("slider", { name: "top_p" }), 0.9);
        const presence = combo.language === "zh" ? "存在惩罚" : "Presence penalty";
        const frequency = combo.language === "zh" ? "频率惩罚" : "Frequency penalty";
        await panel.getByRole("checkbox", { name: presence }).check();
        await setRange(panel.getByRole("slider", { name: presence }), 0.5);
        await panel.getByRole("checkbox", { name: frequency }).check();
        await setRange(panel.getByRole("slider", { name: frequency }), -0.3);
        await panel.getByRole("spinbutton").fill("256");
        await panel.locator("textarea").fill("END\nSTOP");
        await panel.locator("select").nth(1).selectOption("high");
        await panel.getByRole("checkbox", { name: combo.language === "zh" ? "流式输出" : "Stream" }).uncheck();
        await screenshots(page, `playground-parameters-${comboName(combo)}`);
        await hideParameters(pg);
        const before = (await chatBodies(world)).length;
        await send(pg, "Short, please");
        await lastAnswer(page).getByText("A whole answer.").waitFor();
        const body = (await chatBodies(world))[before];
        expect(body).toEqual({
          model: "gpt-4o-mini",
          messages: [
            { role: "system", content: "You are terse." },
            { role: "user", content: "Short, please" },
          ],
          stream: false,
          temperature: 0.7,
          top_p: 0.9,
          max_tokens: 256,
          stop: ["END", "STOP"],
          presence_penalty: 0.5,
          frequency_penalty: -0.3,
          reasoning_effort: "high",
        });
        expect(await lastAnswer(page).locator("[data-stats]").textContent()).toContain(
          combo.language === "zh" ? "30 输入 · 8 输出 tokens" : "30 in · 8 out tokens",
        );
        // Streaming again: the relay is asked for the stream's usage.
        await showParameters(pg);
        await page
          .locator("aside")
          .getByRole("checkbox", { name: combo.language === "zh" ? "流式输出" : "Stream" })
          .check();
        await hideParameters(pg);
        await send(pg, "Again");
        await page.locator('[data-pane="0"] .chat-start[data-state="complete"]').nth(1).waitFor();
        const streamed = (await chatBodies(world)).at(-1);
        expect([streamed.stream, streamed.stream_options]).toEqual([true, { include_usage: true }]);
        expect(streamed.messages.map((message: { role: string }) => message.role)).toEqual(["system", "user", "assistant", "user"]);
      });
      await pg.close();
    }, 90_000);
  }
});

describe("each message", () => {
  for (const combo of otherCrossCombos) {
    test(`copy, regenerate, edit and send again, edit an answer, delete (${comboName(combo)})`, async () => {
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      const user = page.locator('[data-pane="0"] .chat-end');
      const answer = page.locator('[data-pane="0"] .chat-start');
      await step(page, `pg-actions-${comboName(combo)}`, async () => {
        world.upstream.behave("sk-pg-main", { content: "Answer one", chunks: 2 });
        await send(pg, "first question");
        await lastAnswer(page).getByText("Answer one").waitFor();
        await user.getByRole("button", { name: t.copy, exact: true }).click();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("first question");
        await answer.getByRole("button", { name: t.copy, exact: true }).click();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("Answer one");

        world.upstream.behave("sk-pg-main", { content: "Answer two", chunks: 2 });
        await answer.getByRole("button", { name: t.regenerate, exact: true }).click();
        await lastAnswer(page).getByText("Answer two").waitFor();
        expect(await page.locator('[data-pane="0"] .chat').count()).toBe(2);

        world.upstream.behave("sk-pg-main", { content: "Answer three", chunks: 2 });
        await user.getByRole("button", { name: t.edit, exact: true }).click();
        await user.locator("textarea").fill("edited question");
        await user.getByRole("button", { name: t.saveResend, exact: true }).click();
        await lastAnswer(page).getByText("Answer three").waitFor();
        expect((await chatBodies(world)).at(-1).messages).toEqual([{ role: "user", content: "edited question" }]);
        expect(await user.textContent()).toContain("edited question");

        const requests = (await chatBodies(world)).length;
        await answer.getByRole("button", { name: t.edit, exact: true }).click();
        await answer.locator("textarea").fill("Answer, corrected by hand");
        await answer.getByRole("button", { name: t.save, exact: true }).click();
        await answer.getByText("Answer, corrected by hand").waitFor();
        expect((await chatBodies(world)).length).toBe(requests);
        await screenshots(page, `playground-actions-${comboName(combo)}`);

        await answer.getByRole("button", { name: t.delete, exact: true }).click();
        expect(await answer.count()).toBe(0);
        await user.getByRole("button", { name: t.delete, exact: true }).click();
        expect(await page.locator('[data-pane="0"] .chat').count()).toBe(0);
      });
      await pg.close();
    }, 90_000);
  }

  for (const combo of crossCombos) {
    test(`stop while streaming keeps what arrived, and the next question works (${comboName(combo)})`, async () => {
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      await step(page, `pg-stop-${comboName(combo)}`, async () => {
        world.upstream.behave("sk-pg-main", { content: "slowly ", chunks: 60, chunkDelayMs: 150 });
        await send(pg, "Take your time");
        await lastAnswer(page, "incomplete").getByText("slowly").waitFor();
        await page.getByRole("button", { name: t.stop, exact: true }).click();
        const stopped = lastAnswer(page);
        await stopped.getByText(t.stopped, { exact: true }).waitFor();
        const kept = (await stopped.locator(".answer-markdown").textContent())!.trim();
        expect(kept.startsWith("slowly")).toBe(true);
        expect(kept.split(/\s+/).length).toBeLessThan(60);
        await screenshots(page, `playground-stopped-${comboName(combo)}`);
        world.upstream.behave("sk-pg-main", { content: "Quick one", chunks: 2 });
        await send(pg, "And now?");
        await lastAnswer(page).getByText("Quick one").waitFor();
        // The stopped answer is part of the context of the next question.
        expect((await chatBodies(world)).at(-1).messages.map((message: { content: string }) => message.content.trim())).toEqual([
          "Take your time",
          kept,
          "And now?",
        ]);
      });
      await pg.close();
    }, 90_000);
  }
});
