// Random identifiers: token keys, invite codes, access tokens. Always from the crypto RNG.
const alphanumerics = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function randomAlphanumeric(length: number): string {
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  const limit = 256 - (256 % alphanumerics.length);
  let result = "";
  while (result.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && result.length < length) result += alphanumerics[byte % alphanumerics.length];
    }
  }
  return result;
}

/** Digits only (email codes people type); unbiased like randomAlphanumeric. */
export function randomDigits(length: number): string {
  let result = "";
  while (result.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 250 && result.length < length) result += String(byte % 10);
    }
  }
  return result;
}

export function sha256Hex(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}
