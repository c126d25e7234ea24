// Claude model ids on Vertex AI (Google's "Request predictions with Claude models" list): Anthropic's "claude-3-7-sonnet-20250219" is Vertex's
// "claude-3-7-sonnet@20250219" (the version after an @). One model changed name on the way:
// Claude 3.5 Sonnet of 2024-10-22 is "claude-3-5-sonnet-v2@20241022" (Google's published list).
// An id that already has an @, or no date, is used as it is.
const renamed: Record<string, string> = {
  "claude-3-5-sonnet-20241022": "claude-3-5-sonnet-v2@20241022",
};

export function vertexClaudeModel(model: string): string {
  if (model.includes("@")) return model;
  if (renamed[model]) return renamed[model];
  const dated = /^(claude-.+)-(\d{8})$/.exec(model);
  return dated ? `${dated[1]}@${dated[2]}` : model;
}
