// The dashboard's bucketing and totals (in the process's time zone, as the browser's would be).
import { describe, expect, test } from "bun:test";
import { bucketLabel, perMinute, quotaByModelOverTime, totals, totalsBy, totalsOverTime, type UsageRow } from "./usage-series.ts";

const at = (text: string) => Math.floor(new Date(text).getTime() / 1000);
const row = (created: string, model: string, quota: number, user = 1): UsageRow => ({
  user_id: user,
  username: `user${user}`,
  model_name: model,
  created_at: at(created),
  token_used: 10,
  count: 2,
  quota,
});

describe("usage series", () => {
  test("bucket labels by hour, day and the week's Monday", () => {
    expect(bucketLabel(at("2026-03-05T14:00:00"), "hour")).toBe("03-05 14:00");
    expect(bucketLabel(at("2026-03-05T14:00:00"), "day")).toBe("2026-03-05");
    expect(bucketLabel(at("2026-03-05T14:00:00"), "week")).toBe("2026-03-02"); // a Thursday
    expect(bucketLabel(at("2026-03-08T23:00:00"), "week")).toBe("2026-03-02"); // the Sunday after
  });

  test("quota per model per bucket, buckets in time order", () => {
    const rows = [
      row("2026-03-05T15:00:00", "b", 5),
      row("2026-03-05T14:00:00", "a", 1),
      row("2026-03-05T14:00:00", "b", 2),
      row("2026-03-06T09:00:00", "a", 7),
    ];
    expect(quotaByModelOverTime(rows, "day")).toEqual({
      buckets: ["2026-03-05", "2026-03-06"],
      models: [
        { name: "a", values: [1, 7] },
        { name: "b", values: [7, 0] },
      ],
    });
  });

  test("totals, and totals per user largest first", () => {
    const rows = [row("2026-03-05T14:00:00", "a", 1, 1), row("2026-03-05T14:00:00", "a", 9, 2), row("2026-03-05T15:00:00", "b", 3, 1)];
    expect(totals(rows)).toEqual({ quota: 13, count: 6, tokens: 30 });
    expect(totalsBy(rows, (entry) => entry.username).map((entry) => [entry.name, entry.totals.quota])).toEqual([
      ["user2", 9],
      ["user1", 4],
    ]);
  });

  test("totals per bucket for the trend lines, in time order", () => {
    const rows = [row("2026-03-05T15:00:00", "b", 5), row("2026-03-05T14:00:00", "a", 1), row("2026-03-05T14:00:00", "b", 2)];
    expect(totalsOverTime(rows, "hour")).toEqual({
      buckets: ["03-05 14:00", "03-05 15:00"],
      totals: [
        { quota: 3, count: 4, tokens: 20 },
        { quota: 5, count: 2, tokens: 10 },
      ],
    });
    expect(totalsOverTime([], "day")).toEqual({ buckets: [], totals: [] });
  });

  test("requests and tokens per minute over the range, which ends now at the latest", () => {
    const sum = { quota: 0, count: 30, tokens: 600 };
    expect(perMinute(sum, 0, 600, 10_000)).toEqual({ rpm: 3, tpm: 60 });
    // A range reaching an hour ahead counts only the minutes up to now.
    expect(perMinute(sum, 0, 4200, 600)).toEqual({ rpm: 3, tpm: 60 });
    expect(perMinute(sum, 600, 4200, 600)).toEqual({ rpm: 0, tpm: 0 });
  });
});
