// Log entry types (spec §4 Log type).
export const LogType = { unknown: 0, topUp: 1, consume: 2, manage: 3, system: 4 } as const;
export type LogTypeValue = (typeof LogType)[keyof typeof LogType];
