// Who made a change and from where: the /api auth guard builds one per request
// (http/auth-guard.ts) and the routes hand it to every service function that changes something.
export type AuditActor = {
  id: number;
  name: string;
  /** The client's address as the rate limits see it. */
  address: string;
};
