// The sensitive-word check of prompts (options CheckSensitiveEnabled and
// CheckSensitiveOnPromptEnabled, words one per line in SensitiveWords), case-insensitive.
import { AppError } from "../../errors/app-error.ts";
import { optionBool, optionText } from "../../services/options/options.ts";
import { wordMatcher, type WordMatcher } from "./word-matcher.ts";

let parsedFrom: string | undefined;
let matcher: WordMatcher | undefined;

/** The automaton of the configured words, rebuilt when the option changes. */
function sensitiveWords(): WordMatcher | undefined {
  const text = optionText("SensitiveWords");
  if (text !== parsedFrom) {
    parsedFrom = text;
    const words = [
      ...new Set(
        text
          .split("\n")
          .map((word) => word.trim().toLowerCase())
          .filter((word) => word !== ""),
      ),
    ];
    matcher = words.length > 0 ? wordMatcher(words) : undefined;
  }
  return matcher;
}

/** Whether prompts are checked at all (so the relay collects their texts only then). */
export function sensitiveWordCheckOn(): boolean {
  return optionBool("CheckSensitiveEnabled") && optionBool("CheckSensitiveOnPromptEnabled") && sensitiveWords() !== undefined;
}

/** The configured words found in the texts (empty when none, or when the check is off). */
function findSensitiveWords(texts: readonly string[]): string[] {
  if (!optionBool("CheckSensitiveEnabled") || !optionBool("CheckSensitiveOnPromptEnabled")) return [];
  const words = sensitiveWords();
  if (!words || texts.length === 0) return [];
  return words.find(texts, (text) => text.toLowerCase());
}

export function refuseSensitiveWords(texts: readonly string[]): void {
  const found = findSensitiveWords(texts);
  if (found.length > 0) {
    throw new AppError("invalid", "请求包含敏感词：{{words}}", { words: found.join(", ") }, { code: "sensitive_words_detected" });
  }
}
