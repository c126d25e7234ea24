// Answers the console's themed confirmation (#confirm-dialog, console-runtime/confirm-dialog.ts)
// as a person would, and returns the question it asked.
import type { Page } from "playwright-core";

export async function answerConfirmation(page: Page, accept = true): Promise<string> {
  const dialog = page.locator("#confirm-dialog[open]");
  await dialog.waitFor();
  const question = (await dialog.locator("[data-confirm-message]").textContent()) ?? "";
  await dialog.locator(`.modal-box button[value="${accept ? "ok" : "cancel"}"]`).click();
  await dialog.waitFor({ state: "detached" });
  return question;
}
