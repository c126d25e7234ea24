// Operator settings as key/value text pairs (docs/COMPATIBILITY.md, Option keys). The meaning, default and validation
// of each key lives in services/options/option-registry.ts.
import type { Kit } from "../kit.ts";

export const defineOptions = (k: Kit) =>
  k.table("options", {
    key: k.varchar("key", 128).primaryKey(),
    value: k.text("value").notNull().default(""),
  });
