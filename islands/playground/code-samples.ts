// "View code": the playground's request as a program would send it to /v1/chat/completions with
// one of the user's tokens: curl, Python (the official openai package) and JavaScript (the
// official openai package). The body is the same object the playground posts, minus the console's
// own `group` field (a token carries its group). Long data: URLs can be shortened for display;
// the copied text is always the exact request.

export type CodeLanguage = "curl" | "python" | "javascript";

export type SampleInput = { baseUrl: string; key: string; body: Record<string, unknown>; shorten: boolean };

const shortenLimit = 96;

/** Replaces long data: URLs by their start and size (display only). */
function displayBody(body: Record<string, unknown>, shorten: boolean): Record<string, unknown> {
  if (!shorten) return body;
  return JSON.parse(
    JSON.stringify(body, (_key, value) =>
      typeof value === "string" && value.startsWith("data:") && value.length > shortenLimit
        ? `${value.slice(0, 48)}…(${Math.round(value.length / 1024)} KB)`
        : value,
    ),
  ) as Record<string, unknown>;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function curl({ baseUrl, key, body, shorten }: SampleInput): string {
  const json = JSON.stringify(displayBody(body, shorten), null, 2);
  return [
    `curl ${baseUrl}/v1/chat/completions \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    ...(body.stream ? [`  -N \\`] : []),
    `  -d ${shellQuote(json)}`,
  ].join("\n");
}

/** A JSON value as a Python literal (True, False, None; strings through JSON's escapes). */
function pythonLiteral(value: unknown, indent: string): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`).join("\n")}\n${indent}}`;
}

const pythonName = /^[A-Za-z_][A-Za-z0-9_]*$/;

function python({ baseUrl, key, body, shorten }: SampleInput): string {
  const shown = displayBody(body, shorten);
  const lines = [
    `from openai import OpenAI`,
    ``,
    `client = OpenAI(base_url=${JSON.stringify(`${baseUrl}/v1`)}, api_key=${JSON.stringify(key)})`,
    ``,
  ];
  const known = Object.entries(shown).filter(([name]) => pythonName.test(name));
  lines.push(`response = client.chat.completions.create(`);
  for (const [name, value] of known) lines.push(`    ${name}=${pythonLiteral(value, "    ")},`);
  lines.push(`)`);
  if (body.stream) {
    lines.push(
      ``,
      `for chunk in response:`,
      `    if chunk.choices and chunk.choices[0].delta.content:`,
      `        print(chunk.choices[0].delta.content, end="", flush=True)`,
      `    if chunk.usage:`,
      `        print("\\n", chunk.usage)`,
    );
  } else {
    lines.push(``, `print(response.choices[0].message.content)`, `print(response.usage)`);
  }
  return lines.join("\n");
}

function javascript({ baseUrl, key, body, shorten }: SampleInput): string {
  const json = JSON.stringify(displayBody(body, shorten), null, 2);
  const lines = [
    `import OpenAI from "openai";`,
    ``,
    `const client = new OpenAI({ baseURL: ${JSON.stringify(`${baseUrl}/v1`)}, apiKey: ${JSON.stringify(key)} });`,
    ``,
    `const response = await client.chat.completions.create(${json});`,
  ];
  if (body.stream) {
    lines.push(
      ``,
      `for await (const chunk of response) {`,
      `  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");`,
      `  if (chunk.usage) console.log("\\n", chunk.usage);`,
      `}`,
    );
  } else {
    lines.push(``, `console.log(response.choices[0].message.content, response.usage);`);
  }
  return lines.join("\n");
}

export function codeSample(language: CodeLanguage, input: SampleInput): string {
  if (language === "curl") return curl(input);
  if (language === "python") return python(input);
  return javascript(input);
}

/** The body a program sends: the playground's, without the console-only group. */
export function programBody(body: Record<string, unknown>): Record<string, unknown> {
  const { group: _group, ...rest } = body;
  return rest;
}
