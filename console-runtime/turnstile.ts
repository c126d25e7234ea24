// Cloudflare Turnstile on the console's forms: the widget (a .cf-turnstile element inside the
// form) puts its token in a hidden cf-turnstile-response field; calls carry it as ?turnstile=,
// where the server verifies it. Without the widget on the page nothing is added.
declare global {
  interface Window {
    turnstile?: { reset(widget?: Element | string): void };
  }
}

function tokenField(scope: Element): HTMLInputElement | null {
  return scope.querySelector<HTMLInputElement>('input[name="cf-turnstile-response"]');
}

/** The URL with ?turnstile=<token> when the scope (a form) holds a Turnstile widget. */
export function withTurnstile(scope: Element, url: string): string {
  if (!scope.querySelector(".cf-turnstile")) return url;
  const target = new URL(url, window.location.origin);
  target.searchParams.set("turnstile", tokenField(scope)?.value ?? "");
  return target.pathname + target.search;
}

export function resetTurnstile(scope: Element): void {
  const widget = scope.querySelector(".cf-turnstile");
  if (widget && window.turnstile) window.turnstile.reset(widget);
}
