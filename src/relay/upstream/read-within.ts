// Reading an upstream's whole answer within a byte limit, for the calls that keep a whole answer
// in memory outside the relay's streaming path (task polls): a declared length over the limit is
// refused before a byte is kept, and an answer that keeps coming is cut (and the upstream call
// cancelled) as soon as the running count passes the limit, so memory stays at the limit
// whatever an upstream sends.

/** The whole body, or undefined when it is longer than `limitBytes` (the rest is not read). */
export async function readWithin(response: Response, limitBytes: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limitBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      chunks.length = 0;
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
