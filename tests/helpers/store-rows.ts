// Rows read straight from the store with integer columns as numbers whichever dialect runs:
// PostgreSQL's driver returns BIGINT (quota, times) as text, SQLite as numbers.
import type { TestStore } from "./test-store.ts";

export async function storeRows(store: TestStore, text: string, ...params: unknown[]): Promise<any[]> {
  const rows = await store.query<Record<string, unknown>>(text, ...params);
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([name, value]) => [
        name,
        typeof value === "string" && /^-?\d{1,15}$/.test(value) && !/^0\d/.test(value) ? Number(value) : value,
      ]),
    ),
  );
}
