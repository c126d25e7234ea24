// The sensitive-word check of prompts (options CheckSensitiveEnabled and
// CheckSensitiveOnPromptEnabled, words one per line in SensitiveWords), case-insensitive.
import { AppError } from "../../errors/app-error.ts";
import { optionBool, optionText } from "../../services/options/options.ts";

let parsedFrom: string | undefined;
let words: string[] = [];

function sensitiveWords(): string[] {
  const text = optionText("SensitiveWords");
  if (text !== parsedFrom) {
    parsedFrom = text;
    words = [...new Set(text.split("\n").map((word) => word.trim().toLowerCase()).filter((word) => word !== ""))];
  }
  return words;
}

/** The configured words found in the texts (empty when none, or when the check is off). */
export function findSensitiveWords(texts: readonly string[]): string[] {
  if (!optionBool("CheckSensitiveEnabled") || !optionBool("CheckSensitiveOnPromptEnabled")) return [];
  const list = sensitiveWords();
  if (list.length === 0 || texts.length === 0) return [];
  const found = new Set<string>();
  for (const text of texts) {
    const lower = text.toLowerCase();
    for (const word of list) if (lower.includes(word)) found.add(word);
  }
  return [...found];
}

export function refuseSensitiveWords(texts: readonly string[]): void {
  const found = findSensitiveWords(texts);
  if (found.length > 0) {
    throw new AppError("invalid", "请求包含敏感词：{{words}}", { words: found.join(", ") }, { code: "sensitive_words_detected" });
  }
}
