// The log filters read from query values, shared by /api/log and the /log page:
// type, time range, token, model and group for everyone; username, channel and the client's
// address (ip) for admins only.
import type { LogFilter } from "./log-queries.ts";

type Query = Record<string, string | undefined>;

function integer(value: string | undefined): number {
  const number = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isInteger(number) ? number : 0;
}

const text = (value: string | undefined) => value?.trim() || undefined;

export function logFilterFromQuery(query: Query, admin: boolean): LogFilter {
  return {
    type: integer(query.type),
    startTimestamp: integer(query.start_timestamp),
    endTimestamp: integer(query.end_timestamp),
    tokenName: text(query.token_name),
    modelName: text(query.model_name),
    group: text(query.group),
    ...(admin ? { username: text(query.username), channel: integer(query.channel), ip: text(query.ip) } : {}),
  };
}
