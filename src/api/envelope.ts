// Success side of the /api envelope.
export function ok<T>(data?: T, message = "") {
  return { success: true as const, message, data: data as T };
}
