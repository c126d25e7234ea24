// The token meters' interface on its own, so the memory and Redis meters both name it without
// importing each other (token-meters.ts chooses between them).

export type MinuteVerdict = { allowed: boolean; retryAfterSeconds: number };

export interface TokenMeters {
  /** Takes a slot when fewer than `limit` are taken. */
  takeSlot(tokenId: number, limit: number): Promise<boolean>;
  giveSlot(tokenId: number): Promise<void>;
  /** Reserves `tokens` in the token's minute when what it holds plus them stays within `limit`. */
  reserveMinute(tokenId: number, requestId: string, tokens: number, limit: number): Promise<MinuteVerdict>;
  /** Replaces the reservation by the tokens used (counted from now). */
  settleMinute(tokenId: number, requestId: string, reserved: number, used: number): Promise<void>;
  dropMinute(tokenId: number, requestId: string, reserved: number): Promise<void>;
  close(): Promise<void>;
}
