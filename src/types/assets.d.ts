// Non-code files imported into the bundle: SQL migrations as text, built assets as embedded files.
declare module "*.sql" {
  const text: string;
  export default text;
}

// gpt-tokenizer's rank tables, embedded as files (services/billing/tokenizer-ranks.ts): the path.
declare module "*.tiktoken" {
  const path: string;
  export default path;
}
