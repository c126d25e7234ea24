// An island is declared once, by its definition: the name (its folder under islands/, whose
// <name>.island.tsx the build bundles as that name) and, for a React island, the component. The
// server renders it with <Island of={definition}> (src/console/island.tsx), which records it so
// the page loads exactly the bundles of the islands it rendered; the browser entry mounts the
// same definition (hydrate.ts). A script island (no React: the CSV exports, the passkey
// ceremonies) is declared the same way and rendered with <ScriptIsland of={definition} /> where
// its markup is. Each folder's <name>.ts or <name>.tsx exports its definition
// (tests/unit/island-definitions.test.ts holds names and folders together).
import type { ComponentType } from "react";

export type IslandDefinition<Props extends object> = { kind: "react"; name: string; component: ComponentType<Props> };
export type ScriptIslandDefinition = { kind: "script"; name: string };

export function defineIsland<Props extends object>(name: string, component: ComponentType<Props>): IslandDefinition<Props> {
  return { kind: "react", name, component };
}

export function defineScriptIsland(name: string): ScriptIslandDefinition {
  return { kind: "script", name };
}
