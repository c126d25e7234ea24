// Whose call a refusal was, when the refusal came after the key was recognised (an expired or
// exhausted token, a banned owner, an address the token does not allow...): the error log files
// it under that user. A refusal of an unknown key has no owner.
export type RefusedCaller = { userId: number; username: string; tokenId: number; tokenName: string; group: string };

const owners = new WeakMap<object, RefusedCaller>();

/** Marks an error as the refusal of this caller's call; gives the error back. */
export function refusalOf<E>(error: E, caller: RefusedCaller): E {
  if (error && typeof error === "object") owners.set(error, caller);
  return error;
}

export function refusedCallerOf(error: unknown): RefusedCaller | undefined {
  return error && typeof error === "object" ? owners.get(error) : undefined;
}
