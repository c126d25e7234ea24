// Writes one section of docs/PERFORMANCE.md, between <!-- begin:name --> and <!-- end:name -->
// markers, leaving the other sections (written by other benchmarks) and the hand-written
// conclusions between them as they are. Dated notes go to docs/perf-notes/, not here.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const performanceDocPath = join(import.meta.dir, "..", "docs", "PERFORMANCE.md");

const header = `# Performance

Measured by \`npm run bench\` on the development machine (2 cores). Each section is rewritten by
the benchmark that owns it; numbers are from one run and are comparable only on one machine.

The dated diary of what was measured and changed by hand, session by session, is in
[perf-notes/](perf-notes/README.md); below are the generated tables and what they led to.
`;

export function writePerformanceSection(name: string, markdown: string): void {
  const begin = `<!-- begin:${name} -->`;
  const end = `<!-- end:${name} -->`;
  const block = `${begin}\n${markdown.trim()}\n${end}`;
  const current = existsSync(performanceDocPath) ? readFileSync(performanceDocPath, "utf8") : header;
  const pattern = new RegExp(`${begin}[\\s\\S]*?${end}`);
  const next = pattern.test(current) ? current.replace(pattern, block) : `${current.trimEnd()}\n\n${block}\n`;
  writeFileSync(performanceDocPath, next);
}
