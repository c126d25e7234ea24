// Roles and statuses of users, as new-api numbers them (docs/COMPATIBILITY.md, Roles and permissions, Statuses).
export const Role = { guest: 0, common: 1, admin: 10, root: 100 } as const;

export const UserStatus = { enabled: 1, banned: 2, nonEnableable: 3 } as const;

export const isAdmin = (role: number) => role >= Role.admin;
export const isRoot = (role: number) => role >= Role.root;
