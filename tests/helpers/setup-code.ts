// The setup code a new gateway prints (src/services/onboarding/setup-code.ts): what an operator
// copies from the log to sign root in with the default password from another address.
export const setupCodeLine = /setup code ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/g;

/** The code the server printed last, or undefined when it printed none. */
export function printedSetupCode(output: string): string | undefined {
  return [...output.matchAll(setupCodeLine)].at(-1)?.[1];
}

/**
 * The code the server prints, waited for: the server's log reaches the test through a pipe read
 * on its own, a moment after the answer or the "listening" line that came later. With `notThis`,
 * waits for a code other than that one.
 */
export async function awaitSetupCode(output: () => string, notThis?: string): Promise<string | undefined> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = printedSetupCode(output());
    if ((found && found !== notThis) || Date.now() > deadline) return found;
    await Bun.sleep(20);
  }
}
