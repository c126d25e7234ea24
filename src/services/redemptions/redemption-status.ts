// Redemption code statuses (spec §4 Redemption status).
export const RedemptionStatus = { unused: 1, disabled: 2, used: 3 } as const;
