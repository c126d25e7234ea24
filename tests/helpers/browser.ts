// Headless Debian Chromium driven by playwright-core. The browser comes from Debian's package
// (a test tool's own browser download cannot work here); it is installed when missing.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const artifactsDirectory = join(import.meta.dir, "..", "artifacts");

/** Chinese screenshots need a CJK font; Debian's Chromium does not bring one. */
const cjkFontPath = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

function ensureChromium(): void {
  const missing = [
    !existsSync(chromiumPath) && "chromium",
    !existsSync(cjkFontPath) && "fonts-noto-cjk",
  ].filter((name): name is string => Boolean(name));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`missing Debian packages ${missing.join(", ")}: apt-get install -y ${missing.join(" ")}`);
  }
  const install = Bun.spawnSync({ cmd: ["apt-get", "install", "-y", "--no-install-recommends", ...missing], stdout: "inherit", stderr: "inherit" });
  if (install.exitCode !== 0 || !existsSync(chromiumPath)) throw new Error(`could not install ${missing.join(", ")} with apt-get`);
}

export async function launchBrowser(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}

export async function newContext(browser: Browser, options: { width?: number; language?: "zh" | "en"; baseURL: string }): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 860 },
    baseURL: options.baseURL,
    locale: options.language === "en" ? "en-US" : "zh-CN",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: options.baseURL });
  return context;
}

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDirectory, { recursive: true });
  const path = join(artifactsDirectory, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Runs a browser step; on failure saves a screenshot named after it before rethrowing. */
export async function step<T>(page: Page, name: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    await saveScreenshot(page, `failure-${name.replace(/[^a-z0-9-]+/gi, "-")}`).catch(() => {});
    throw error;
  }
}

/** Signs in through the login form, as a person would. */
export async function loginThroughForm(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form[data-api-form="POST /api/user/login"] button[type="submit"]').click();
}
