// The playground's tools in a real browser, at desktop and phone sizes, in both languages: the
// model picker with search and the group's models; a picture sent to a vision model as an
// image_url data URL; the conversation kept across a reload; "view code" with the token the user
// picks (the exact request the next send makes); two models side by side on one prompt.
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
  send,
  showParameters,
  startPlaygroundWorld,
  type PlaygroundWorld,
} from "../helpers/playground-setup.ts";

let world: PlaygroundWorld;
const username = "toolsuser";

beforeAll(async () => {
  world = await startPlaygroundWorld(username);
});
afterAll(() => world?.stop());

/** A 2x2 PNG. */
const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGP8z8Dwn4GBgYGJAQoAAP//AwgBAb9Z8nkAAAAASUVORK5CYII=",
  "base64",
);

describe("models and pictures", () => {
  for (const combo of crossCombos) {
    test(`the picker searches the group's models; a picture goes to a vision model as a data URL (${comboName(combo)})`, async () => {
      world.upstream.behave("sk-pg-main", { content: "A tiny square.", chunks: 3 });
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      await step(page, `pg-picker-${comboName(combo)}`, async () => {
        const picker = page.locator("[data-model-picker]");
        await picker.click();
        const options = page.getByRole("option");
        expect(await options.locator("span:first-child").allTextContents()).toEqual(["gpt-4o", "gpt-4o-mini", "vision-model"]);
        // Each with its price per 1M tokens in and out (gpt-4o-mini: ratio 0.075 x 2, completion x 4).
        expect(await page.locator('[data-model="gpt-4o-mini"]').textContent()).toBe("gpt-4o-mini$0.15 / $0.60");
        await page.getByPlaceholder(t.search).fill("visi");
        expect(await options.locator("span:first-child").allTextContents()).toEqual(["vision-model"]);
        await screenshots(page, `playground-picker-${comboName(combo)}`);
        await page.keyboard.press("Enter");
        expect(await picker.textContent()).toBe("vision-model");
        // Another group, other models: vip also reaches the vip-only channel.
        await showParameters(pg);
        await page.locator("aside").getByRole("combobox").first().selectOption("vip");
        await hideParameters(pg);
        await picker.click();
        expect(await options.locator("span:first-child").allTextContents()).toEqual(["gpt-4o", "gpt-4o-mini", "vip-model", "vision-model"]);
        await page.keyboard.press("Escape");
        await showParameters(pg);
        await page.locator("aside").getByRole("combobox").first().selectOption("default");
        await hideParameters(pg);

        await page.locator('input[type="file"]').setInputFiles({ name: "square.png", mimeType: "image/png", buffer: png });
        await page.getByRole("img", { name: combo.language === "zh" ? "图片 1" : "Image 1" }).waitFor();
        await send(pg, "What is this?");
        await lastAnswer(page).getByText("A tiny square.").waitFor();
        const body = (await chatBodies(world)).at(-1);
        expect(body.model).toBe("vision-model");
        expect(body.messages).toEqual([
          {
            role: "user",
            content: [
              { type: "text", text: "What is this?" },
              { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
            ],
          },
        ]);
        expect(await page.locator('[data-pane="0"] .chat-end img').count()).toBe(1);
        await screenshots(page, `playground-picture-${comboName(combo)}`);
      });
      await pg.close();
    }, 90_000);
  }
});

describe("kept and shown", () => {
  for (const combo of otherCrossCombos) {
    test(`the conversation, system prompt and parameters survive a reload (${comboName(combo)})`, async () => {
      world.upstream.behave("sk-pg-main", { content: "Remember me.", chunks: 2 });
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      await step(page, `pg-reload-${comboName(combo)}`, async () => {
        await page.getByText(t.system, { exact: true }).click();
        await page.getByLabel(t.system, { exact: true }).fill("Be kind.");
        await showParameters(pg);
        await page.locator("aside").getByRole("spinbutton").fill("99");
        await hideParameters(pg);
        await send(pg, "Will you remember?");
        await lastAnswer(page).getByText("Remember me.").waitFor();
        await page.reload();
        await lastAnswer(page).getByText("Remember me.").waitFor();
        expect(await page.locator('[data-pane="0"] .chat-end').textContent()).toContain("Will you remember?");
        expect(await page.getByLabel(t.system, { exact: true }).inputValue()).toBe("Be kind.");
        await showParameters(pg);
        expect(await page.locator("aside").getByRole("spinbutton").inputValue()).toBe("99");
        // Kept per user: another account on the same browser starts empty.
        expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("playground:")))).toEqual([
          `playground:${world.player.userId}`,
        ]);
      });
      await pg.close();
    }, 90_000);
  }

  for (const combo of allCombos) {
    test(`view code: the exact next request, with the token the user picks (${comboName(combo)})`, async () => {
      world.upstream.behave("sk-pg-main", { content: "Coded.", chunks: 1 });
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      await step(page, `pg-code-${comboName(combo)}`, async () => {
        await page.getByLabel(t.message, { exact: true }).fill("Hi there, it's me");
        await page.getByRole("button", { name: t.viewCode, exact: true }).click();
        const dialog = page.getByRole("dialog", { name: t.viewCode });
        const code = dialog.locator("[data-code-sample]");
        // No key until the user picks one of their tokens.
        expect(await code.textContent()).toContain("Bearer sk-…");
        expect(await page.content()).not.toContain(world.tokenKey);
        await dialog.getByRole("combobox").selectOption({ label: "player-app" });
        await dialog.getByText(`Bearer sk-${world.tokenKey}`).waitFor();
        const curl = (await code.textContent())!;
        const json = JSON.parse(curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'")).replace(/'\\''/g, "'"));
        expect(curl).toStartWith(`curl ${world.server.url}/v1/chat/completions`);
        await screenshots(page, `playground-code-${comboName(combo)}`);
        await dialog.getByRole("tab", { name: "Python" }).click();
        expect(await code.textContent()).toContain(`api_key="sk-${world.tokenKey}"`);
        expect(await code.textContent()).toContain('stream_options={\n        "include_usage": True,\n    },');
        await dialog.getByRole("tab", { name: "JavaScript" }).click();
        expect(await code.textContent()).toContain(`apiKey: "sk-${world.tokenKey}"`);
        await dialog.getByRole("button", { name: t.close, exact: true }).first().click();

        // The shown body is what the playground then posts (less the console's own group)...
        const posted = page.waitForRequest((request) => request.url().endsWith("/pg/chat/completions"));
        await page.getByRole("button", { name: t.send, exact: true }).click();
        const { group, ...sent } = JSON.parse((await posted).postData()!);
        expect(group).toBe("default");
        expect(sent).toEqual(json);
        await lastAnswer(page).getByText("Coded.").waitFor();
        // ...and it works as it is against /v1 with the token.
        const direct = await fetch(`${world.server.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer sk-${world.tokenKey}`, "content-type": "application/json" },
          body: JSON.stringify(json),
        });
        expect(direct.status).toBe(200);
        expect(await direct.text()).toContain("data: [DONE]");
      });
      await pg.close();
    }, 90_000);
  }
});

describe("side by side", () => {
  for (const combo of crossCombos) {
    test(`two models answer one prompt side by side, each with its own numbers (${comboName(combo)})`, async () => {
      world.upstream.behave("sk-pg-main", {
        content: "Both of us answer.",
        chunks: 3,
        chunkDelayMs: 30,
        promptTokens: 12,
        completionTokens: 5,
      });
      const pg = await openPlayground(world, username, combo);
      const { page, t } = pg;
      await step(page, `pg-compare-${comboName(combo)}`, async () => {
        await page.getByRole("button", { name: t.compare, exact: true }).click();
        const second = page.locator('[data-pane="1"]');
        await second.locator("[data-model-picker]").click();
        await second.locator('[data-model="gpt-4o"]').click();
        const before = (await chatBodies(world)).length;
        await send(pg, "Who are you?");
        await lastAnswer(page, "complete", 0).waitFor();
        await lastAnswer(page, "complete", 1).waitFor();
        const models = (await chatBodies(world))
          .slice(before)
          .map((body) => body.model)
          .sort();
        expect(models).toEqual(["gpt-4o", "gpt-4o-mini"]);
        expect(await lastAnswer(page, "complete", 0).locator("[data-stats]").textContent()).toContain("gpt-4o-mini");
        // gpt-4o at ratio 1.25: round((12 + 5 x 4) x 1.25) = 40 quota = $0.00008.
        const right = (await lastAnswer(page, "complete", 1).locator("[data-stats]").textContent())!;
        expect(right).toContain("gpt-4o");
        expect(right).toContain("$0.00008");
        const boxes = await Promise.all([0, 1].map((pane) => page.locator(`[data-pane="${pane}"]`).boundingBox()));
        if (combo.screen === "desktop") expect(boxes[1]!.x).toBeGreaterThan(boxes[0]!.x + boxes[0]!.width - 1);
        else expect(boxes[1]!.y).toBeGreaterThan(boxes[0]!.y + boxes[0]!.height - 1);
        await screenshots(page, `playground-compare-${comboName(combo)}`);
      });
      await pg.close();
    }, 90_000);
  }
});
