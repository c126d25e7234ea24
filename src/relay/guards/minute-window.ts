// The window a token's tokens per minute are counted in (token-meters.ts and its Redis twin).
export const minuteMs = 60_000;
