// Request ids in new-api's shape (yyyyMMddHHmmss + digits + 8 letters): unique across instances
// (the time, a per-process counter and random letters), echoed in X-Oneapi-Request-Id and
// error messages, and the key of the request's quota hold and consumption log.
const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
let counter = Math.floor(Math.random() * 1_000_000);

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

const timePart = (now: Date) =>
  `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;

// The time part changes once a second; every request of that second reuses it.
let cachedSecond = -1;
let cachedTimePart = "";

function currentTimePart(): string {
  const milliseconds = Date.now();
  const second = Math.floor(milliseconds / 1000);
  if (second !== cachedSecond) {
    cachedSecond = second;
    cachedTimePart = timePart(new Date(milliseconds));
  }
  return cachedTimePart;
}

export function newRequestId(now?: Date): string {
  counter = (counter + 1) % 1_000_000;
  let suffix = "";
  for (let index = 0; index < 8; index++) suffix += letters[Math.floor(Math.random() * letters.length)];
  return `${now ? timePart(now) : currentTimePart()}${pad(counter, 6)}${suffix}`;
}
