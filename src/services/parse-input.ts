// Validating inputs with zod and turning the first problem into an AppError whose message is
// the schema's (the specification's wording). Zod's own English defaults never reach people.
import { z } from "zod";
import { invalid, invalidField } from "../errors/app-error.ts";

const invalidParameters = "无效的参数";

/**
 * `named`: a failure of one top-level field says which (`data.field`), for forms that show the
 * message beside the field (the channel and token drawers).
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown, named = false): z.output<Schema> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const message = issue && isOurMessage(issue.message) ? issue.message : invalidParameters;
  const field = issue?.path[0];
  if (named && typeof field === "string" && message !== invalidParameters) throw invalidField(field, message);
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
