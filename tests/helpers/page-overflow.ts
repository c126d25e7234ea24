// Whether a page scrolls sideways, and if so which elements stick out past the window's right
// edge (so a failing check names the culprit instead of a bare width).
import type { Page } from "playwright-core";

export type Overflow = { scrollWidth: number; viewport: number; culprits: string[] };

export async function sidewaysOverflow(page: Page): Promise<Overflow | null> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const scrollWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (scrollWidth <= viewport + 1) return null;
    const culprits: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const box = element.getBoundingClientRect();
      if (box.right <= viewport + 1 || box.width === 0) continue;
      // Only the outermost offender of each branch: its children stick out because it does.
      if (element.parentElement && element.parentElement.getBoundingClientRect().right > viewport + 1) continue;
      const id = element.id ? `#${element.id}` : "";
      const classes = typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).slice(0, 4).join(".")}` : "";
      culprits.push(`${element.tagName.toLowerCase()}${id}${classes} (right ${Math.round(box.right)})`);
      if (culprits.length >= 5) break;
    }
    return { scrollWidth, viewport, culprits };
  });
}
