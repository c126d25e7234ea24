// The /audit CSV export's one declaration (island-definition.ts): rendered beside the export
// button by the audit page, its script is audit-export.island.tsx.
import { defineScriptIsland } from "../island-definition.ts";

export const auditExportIsland = defineScriptIsland("audit-export");
