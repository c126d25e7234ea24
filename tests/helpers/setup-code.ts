// The setup code a new gateway prints (src/services/onboarding/setup-code.ts): what an operator
// copies from the log to sign root in with the default password from another address.
export const setupCodeLine = /setup code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/g;

/** The code the server printed last, or undefined when it printed none. */
export function printedSetupCode(output: string): string | undefined {
  return [...output.matchAll(setupCodeLine)].at(-1)?.[1];
}
