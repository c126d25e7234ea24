// An integer input that may arrive as a JSON number or as digits in a string (console forms send
// text); blank means the default. Anything else fails with the given message.
import { z } from "zod";

export function integerField(message: string, fallback?: number) {
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === "") return fallback;
      if (typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) return Number(value);
      return value;
    },
    z.number({ error: message }).int(message).min(Number.MIN_SAFE_INTEGER, message).max(Number.MAX_SAFE_INTEGER, message),
  );
}
