// Process log: one line per event on stdout/stderr. Fields whose names suggest a secret are
// masked, so a careless call can never print a key, token or password.
type Fields = Record<string, unknown>;

const secretName = /(key|token|secret|password|authorization|cookie)/i;

function redact(fields: Fields | undefined): Fields | undefined {
  if (!fields) return undefined;
  const result: Fields = {};
  for (const [name, value] of Object.entries(fields)) result[name] = secretName.test(name) ? "[redacted]" : value;
  return result;
}

function write(level: "info" | "warn" | "error", message: string, fields?: Fields) {
  const line = `${new Date().toISOString()} ${level.toUpperCase()} ${message}${fields ? " " + JSON.stringify(redact(fields)) : ""}`;
  if (level === "info") console.log(line);
  else console.error(line);
}

export const logger = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
