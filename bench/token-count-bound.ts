// How long one local token count can hold the event loop (docs/RELIABILITY.md, "No input stalls
// the event loop"). A count may take `countSteps` steps of the byte-pair counter and estimates the
// rest (services/billing/token-counter.ts); this times, for the texts that cost the most per step,
// a count at that budget, and the time per step of each, from which the budget was chosen.
// Run alone on a quiet machine: `bun bench/token-count-bound.ts` (not part of `npm run bench`).
import { readFileSync } from "node:fs";
import { countChatPromptTokens, countSteps, countTextTokens } from "../src/services/billing/token-counter.ts";

const megabytes = (n: number) => n * 1024 * 1024;
let seed = 20261127;
const next = (limit: number) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed % limit;
};
const randomOf = (alphabet: string, length: number) => {
  const characters = [...alphabet];
  let text = "";
  while (text.length < length) text += characters[next(characters.length)];
  return text;
};
const words = "the gateway counts every prompt before it holds quota and settles what the upstream reported".split(" ");
const prose = (length: number) => {
  let text = "";
  while (text.length < length) text += `${words[next(words.length)]}${next(12) === 0 ? ". " : " "}`;
  return text;
};

/** Texts that exhaust the budget, one per shape of cost. */
const texts: Record<string, () => string> = {
  "one character, 10 MB": () => "x".repeat(megabytes(10)),
  "base64, 10 MB": () => Buffer.from(Array.from({ length: megabytes(7.5) }, () => next(256))).toString("base64"),
  "random CJK, 2 M characters": () =>
    randomOf(
      "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经",
      2_000_000,
    ),
  "random kana and Cyrillic, 4 M characters": () =>
    randomOf("ぁあぃいぅうぇえぉおかがきぎくぐけげこごアイウエオカキクケコабвгдеёжзийклмнопрст", 4_000_000),
  "random accented Latin, 6 M characters": () => randomOf("àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ", 6_000_000),
  "emoji, 4 M units": () => randomOf("😀😃🌍🚀👍🏽❤️‍🔥🇨🇳", 4_000_000),
  "punctuation, 10 MB": () => randomOf(".,;:!?'\"()[]{}<>/\\|-_=+*&^%$#@~`", megabytes(10)),
  "digits, 10 MB": () => randomOf("0123456789", megabytes(10)),
  "single letters and spaces, 10 MB": () => randomOf("abcdefghijklmnopqrstuvwxyz", megabytes(5)).split("").join(" "),
  "whitespace runs, 10 MB": () => randomOf(" \t\n\r", megabytes(10)),
  "English prose, 40 MB": () => prose(megabytes(40)),
};

/**
 * CPU time of this process's main thread so far, in ms (schedstat: nanoseconds on a CPU). On a
 * busy machine the wall time also counts waiting for a core; what a count costs the event loop
 * on a machine of its own is its CPU time.
 */
const mainThreadCpuMs = () => Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;

function timed(count: () => number): { ms: number; cpuMs: number; tokens: number } {
  const cpu = mainThreadCpuMs();
  const started = performance.now();
  const tokens = count();
  return { ms: performance.now() - started, cpuMs: mainThreadCpuMs() - cpu, tokens };
}

countTextTokens("warm the tables up", "gpt-4o");
const repeats = Number(process.env.TOKEN_BOUND_REPEATS ?? 5);
const probeSteps = 4_000_000;
const rows: string[] = [];
let worst = 0;
const measure = (name: string, count: (steps?: number) => number, probe: boolean) => {
  let wall = Infinity;
  let cpu = Infinity;
  let perStep = Infinity;
  for (let round = 0; round < repeats; round++) {
    const at = timed(() => count());
    wall = Math.min(wall, at.ms);
    cpu = Math.min(cpu, at.cpuMs);
    if (probe) perStep = Math.min(perStep, (timed(() => count(probeSteps)).cpuMs * 1e6) / probeSteps);
  }
  worst = Math.max(worst, cpu);
  rows.push(`| ${name} | ${cpu.toFixed(1)} | ${wall.toFixed(1)} | ${probe ? perStep.toFixed(2) : "-"} |`);
};
for (const [name, make] of Object.entries(texts)) {
  const text = make();
  measure(name, (steps) => countTextTokens(text, "gpt-4o", steps), true);
}
const messages = Array.from({ length: 100_000 }, (_, i) => ({ role: "user", content: `message ${i}` }));
measure("100 000 short messages", (steps) => countChatPromptTokens(messages, "gpt-4o", undefined, steps), true);

console.log(`budget: ${countSteps.toLocaleString("en")} steps; best of ${repeats}\n`);
console.log("| text | CPU ms of a count at the budget | wall ms | CPU ns per step |\n|---|---|---|---|");
console.log(rows.join("\n"));
console.log(`\nlongest: ${worst.toFixed(1)} ms of CPU`);
