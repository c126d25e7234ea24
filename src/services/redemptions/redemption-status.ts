// Redemption code statuses (docs/COMPATIBILITY.md, Statuses).
export const RedemptionStatus = { unused: 1, disabled: 2, used: 3 } as const;
