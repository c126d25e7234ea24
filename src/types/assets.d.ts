// Non-code files imported into the bundle: SQL migrations as text, built assets as embedded files.
declare module "*.sql" {
  const text: string;
  export default text;
}
