// Log entry types (docs/COMPATIBILITY.md, Log types; 5 is new-api's newer error type: a refused or failed relay call).
export const LogType = { unknown: 0, topUp: 1, consume: 2, manage: 3, system: 4, error: 5 } as const;
export type LogTypeValue = (typeof LogType)[keyof typeof LogType];
