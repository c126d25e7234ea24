// "The user can see it": a message is on screen and nothing covers it (the hit test at its centre
// lands on it), which a toast under an open dialog fails although it is in the page.
import { expect } from "bun:test";
import type { Locator, Page } from "playwright-core";

export async function expectSeen(within: Locator, text: string | RegExp): Promise<Locator> {
  const message = within.getByText(text, typeof text === "string" ? { exact: true } : undefined).first();
  await message.waitFor();
  let seen = false;
  for (let tries = 0; tries < 20 && !seen; tries++) {
    seen = await message.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return false;
      const hit = document.elementFromPoint(x, y);
      return hit !== null && (hit === element || element.contains(hit));
    });
    if (!seen) await Bun.sleep(100);
  }
  expect(seen).toBe(true);
  return message;
}

/**
 * A toast said while a modal dialog is open: the corner is raised into the top layer, over the
 * dialog's backdrop (a hit test cannot show it: the modal dialog makes the rest of the page inert).
 */
export async function expectToastOverDialog(page: Page, text: string): Promise<void> {
  await page.locator("#toasts").getByText(text, { exact: true }).first().waitFor();
  expect(await page.locator("#toasts").evaluate((area) => area.matches(":popover-open"))).toBe(true);
  expect(await page.locator("dialog:modal").count()).toBeGreaterThan(0);
}
