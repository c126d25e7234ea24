// Browser side of two-factor and passkeys (issue 28), on the sign-in page, the personal settings
// and the two-factor gate. A plain script, not React: WebAuthn ceremonies through
// @simplewebauthn/browser (registering a passkey, signing in with one alone, or using one as the
// second step), and the TOTP setup's QR code drawn by uqr from the otpauth URL the server gave.
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { renderSVG } from "uqr";
import { ApiFailure, apiCall } from "../../console-runtime/api-client.ts";
import { finishLogin } from "../../console-runtime/api-forms.ts";
import { copyText } from "../../console-runtime/clipboard.ts";
import type { ConsoleUser } from "../../console-runtime/console-data.ts";
import { showToast } from "../../console-runtime/toasts.ts";

type Json = Parameters<typeof startAuthentication>[0]["optionsJSON"];
type CreationJson = Parameters<typeof startRegistration>[0]["optionsJSON"];

/** The browser's own refusals (cancelled, timed out, no matching passkey) as a toast. */
function reportCeremonyFailure(error: unknown): void {
  // apiCall already told the user about failed calls.
  if (error instanceof Error && !(error instanceof ApiFailure)) showToast(error.message, "error");
}

function supported(element: HTMLElement): boolean {
  if (browserSupportsWebAuthn()) return true;
  showToast(element.dataset.unsupportedText ?? "WebAuthn", "error");
  return false;
}

async function withBusy(button: HTMLButtonElement | null, work: () => Promise<void>): Promise<void> {
  button?.setAttribute("disabled", "");
  button?.classList.add("loading");
  try {
    await work();
  } catch (error) {
    reportCeremonyFailure(error);
  } finally {
    button?.removeAttribute("disabled");
    button?.classList.remove("loading");
  }
}

/** A passkey alone: any passkey of this site the authenticator holds. */
function signInWithPasskey(button: HTMLButtonElement): Promise<void> {
  return withBusy(button, async () => {
    const options = await apiCall<Json>("POST", "/api/user/passkey/login/options", {});
    const response = await startAuthentication({ optionsJSON: options.data! });
    const envelope = await apiCall<ConsoleUser>("POST", "/api/user/passkey/login", { response });
    finishLogin(envelope.data!);
  });
}

/** A passkey as the second step of a sign-in the first step started. */
function secondStepWithPasskey(button: HTMLButtonElement): Promise<void> {
  return withBusy(button, async () => {
    const options = await apiCall<Json>("POST", "/api/user/login/2fa/passkey", {});
    const response = await startAuthentication({ optionsJSON: options.data! });
    const envelope = await apiCall<ConsoleUser>("POST", "/api/user/login/2fa", { response });
    finishLogin(envelope.data!);
  });
}

function registerPasskey(form: HTMLFormElement): Promise<void> {
  return withBusy(form.querySelector("button[type=submit]"), async () => {
    const name = form.querySelector<HTMLInputElement>('input[name="name"]')?.value.trim() ?? "";
    const options = await apiCall<CreationJson>("POST", "/api/user/passkeys/options", {});
    const response = await startRegistration({ optionsJSON: options.data! });
    const envelope = await apiCall("POST", "/api/user/passkeys", { name, response });
    showToast(envelope.message, "success");
    form.reset();
    const region = document.getElementById("passkeys-region");
    if (region) (window as { htmx?: { trigger(element: Element, name: string): void } }).htmx?.trigger(region, "refresh");
  });
}

function startTotpSetup(button: HTMLButtonElement): Promise<void> {
  const card = button.closest("section") ?? document.body;
  return withBusy(button, async () => {
    const envelope = await apiCall<{ secret: string; otpauth_url: string }>("POST", "/api/user/2fa/setup", {});
    const { secret, otpauth_url } = envelope.data!;
    const qr = card.querySelector<HTMLElement>("[data-totp-qr]");
    if (qr) {
      const svg = new DOMParser().parseFromString(renderSVG(otpauth_url, { border: 1 }), "image/svg+xml").documentElement;
      svg.setAttribute("width", "100%");
      svg.removeAttribute("height");
      qr.replaceChildren(document.importNode(svg, true));
    }
    const secretText = card.querySelector<HTMLElement>("[data-totp-secret]");
    if (secretText) secretText.textContent = secret.replace(/(.{4})/g, "$1 ").trim();
    card.querySelector<HTMLElement>("[data-totp-panel]")?.removeAttribute("hidden");
    button.hidden = true;
    card.querySelector<HTMLInputElement>('[data-totp-panel] input[name="code"]')?.focus();
  });
}

let recoveryCodes: string[] = [];

function showRecoveryCodes(event: Event): void {
  const card = (event.target as HTMLElement).closest("section") ?? document.body;
  recoveryCodes = ((event as CustomEvent<{ recovery_codes?: string[] }>).detail?.recovery_codes ?? []).slice();
  card.querySelector<HTMLElement>("[data-totp-panel]")?.setAttribute("hidden", "");
  const list = card.querySelector<HTMLElement>("[data-recovery-codes]");
  list?.replaceChildren(...recoveryCodes.map((code) => Object.assign(document.createElement("li"), { textContent: code })));
  card.querySelector<HTMLElement>("[data-recovery-panel]")?.removeAttribute("hidden");
}

document.addEventListener("click", (event) => {
  const target = event.target as HTMLElement | null;
  const passkeyLogin = target?.closest<HTMLButtonElement>("[data-passkey-login]");
  if (passkeyLogin && supported(passkeyLogin)) return void signInWithPasskey(passkeyLogin);
  const secondStep = target?.closest<HTMLButtonElement>("[data-passkey-second-factor]");
  if (secondStep && supported(secondStep)) return void secondStepWithPasskey(secondStep);
  const setup = target?.closest<HTMLButtonElement>("[data-totp-setup]");
  if (setup) return void startTotpSetup(setup);
  const copy = target?.closest<HTMLElement>("[data-copy-recovery-codes]");
  if (copy) return void copyText(recoveryCodes.join("\n"), copy.dataset.copiedMessage);
  if (target?.closest("[data-reload-page]")) window.location.reload();
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.dataset.passkeyRegister === undefined) return;
  event.preventDefault();
  if (supported(form)) void registerPasskey(form);
});

document.addEventListener("totp-enabled", showRecoveryCodes);
