// Vendors answer errors and odd events in JSON, in text, or in HTML from a proxy in between:
// reading one must never throw, so an unreadable body is simply "no JSON here".
export function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
