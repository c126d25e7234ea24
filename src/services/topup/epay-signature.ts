// The Epay (易支付) signature: the non-empty parameters except sign and sign_type, sorted by
// name, joined as k=v&k=v, the merchant key appended, MD5 in lowercase hex.

export type EpayParams = Record<string, string>;

export function epaySign(params: EpayParams, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== "sign" && name !== "sign_type" && params[name] !== undefined && params[name] !== "")
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join("&");
  return new Bun.CryptoHasher("md5").update(text + key, "utf8").digest("hex");
}

/** Constant-time check of a received signature; an empty merchant key never verifies. */
export function epayVerify(params: EpayParams, key: string): boolean {
  if (!key || typeof params.sign !== "string") return false;
  if (params.sign_type !== undefined && params.sign_type.toUpperCase() !== "MD5") return false;
  const expected = Buffer.from(epaySign(params, key), "utf8");
  const received = Buffer.from(params.sign.toLowerCase(), "utf8");
  return expected.length === received.length && crypto.timingSafeEqual(expected, received);
}
