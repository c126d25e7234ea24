// Validating inputs with zod and turning the first problem into an AppError whose message is
// the schema's (the specification's wording). Zod's own English defaults never reach people.
import { z } from "zod";
import { invalid } from "../errors/app-error.ts";

export const invalidParameters = "无效的参数";

export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const message = issue && isOurMessage(issue.message) ? issue.message : invalidParameters;
  throw invalid(message);
}

/** Messages we wrote contain CJK text or end in the spec's punctuation; zod's defaults are English. */
function isOurMessage(message: string): boolean {
  return /[\u3000-\u9fff\uff00-\uffef]/.test(message);
}

/** A required text field: missing, non-text and blank all give the same message. */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, message);
}

/** An optional text field that may arrive missing or null. */
export function optionalText() {
  return z
    .string()
    .nullish()
    .transform((value) => value ?? "");
}
