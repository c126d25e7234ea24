// Request ids in new-api's shape (yyyyMMddHHmmss + digits + 8 letters): unique across instances
// (the time, a per-process counter and random letters), echoed in X-Oneapi-Request-Id and
// error messages, and the key of the request's quota hold and consumption log.
const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
let counter = Math.floor(Math.random() * 1_000_000);

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

export function newRequestId(now = new Date()): string {
  counter = (counter + 1) % 1_000_000;
  let suffix = "";
  for (let index = 0; index < 8; index++) suffix += letters[Math.floor(Math.random() * letters.length)];
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}${pad(counter, 6)}${suffix}`;
}
