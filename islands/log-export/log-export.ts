// The /log CSV export's one declaration (island-definition.ts): rendered beside the export
// button by the log page, its script is log-export.island.tsx.
import { defineScriptIsland } from "../island-definition.ts";

export const logExportIsland = defineScriptIsland("log-export");
