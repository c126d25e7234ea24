// What the channel drawer has to say, and where: a refusal beside the field the server names
// (`data.field` of the envelope), other refusals above the submit button, a fetch's result under
// the model buttons.

/** What the drawer has to say: a refusal (of one field when `field` is set) or a fetch's result. */
export type Notice = { kind: "error" | "success"; text: string; field?: string };

/** The inputs that show their own refusals; the server's other refusals go above the submit button. */
export const fieldsWithErrors = new Set([
  "name",
  "key",
  "base_url",
  "other",
  "openai_organization",
  "group",
  "models",
  "model_mapping",
  "status_code_mapping",
  "setting",
  "test_model",
  "priority",
  "weight",
  "tag",
]);
