// What a channel type's key looks like, where both the channel form's checks
// (channel-input.ts) and the type's adaptor need to tell key forms apart.

/** An express-mode API key of Vertex AI: one token of the characters Google's keys use (AIza…, AQ.…). */
const vertexApiKeyPattern = /^[A-Za-z0-9._-]{16,256}$/;

/** Whether a Vertex channel key is an express-mode API key rather than a service-account key file. */
export function isVertexApiKey(key: string): boolean {
  return vertexApiKeyPattern.test(key.trim());
}
