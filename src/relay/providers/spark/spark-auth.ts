// iFlytek's signed WebSocket URL ("WebSocket协议通用鉴权URL生成说明"): HMAC-SHA256 with the
// APISecret over "host: …\ndate: …\nGET {path} HTTP/1.1", base64; then
// authorization = base64('api_key="…", algorithm="hmac-sha256", headers="host date request-line",
// signature="…"') and the URL carries authorization, date (RFC 1123, within 300 s of iFlytek's
// clock) and host as query parameters. Pure: the date is passed in.
export type SparkCredentials = { appId: string; apiSecret: string; apiKey: string };

/** The channel key `APPID|APISecret|APIKey`. */
export function sparkKeyParts(key: string): SparkCredentials {
  const [appId = "", apiSecret = "", apiKey = ""] = key.split("|").map((part) => part.trim());
  return { appId, apiSecret, apiKey };
}

export function sparkSignature(apiSecret: string, host: string, date: string, path: string): string {
  const origin = `host: ${host}\ndate: ${date}\nGET ${path} HTTP/1.1`;
  return new Bun.CryptoHasher("sha256", apiSecret).update(origin).digest("base64");
}

export function sparkAuthorization(apiKey: string, signature: string): string {
  const origin = `api_key="${apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${signature}"`;
  return Buffer.from(origin).toString("base64");
}

/** The signed URL of a Spark endpoint (`wss://host/path`) at the given time. */
export function signedSparkUrl(endpoint: string, credentials: Pick<SparkCredentials, "apiKey" | "apiSecret">, date: Date): string {
  const url = new URL(endpoint);
  const rfc1123 = date.toUTCString();
  const signature = sparkSignature(credentials.apiSecret, url.host, rfc1123, url.pathname);
  const query = new URLSearchParams({ authorization: sparkAuthorization(credentials.apiKey, signature), date: rfc1123, host: url.host });
  return `${url.origin}${url.pathname}?${query}`;
}
