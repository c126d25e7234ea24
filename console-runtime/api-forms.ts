// Forms that submit JSON to /api: <form data-api-form="POST /api/user/login" data-success="...">.
// The server validates and answers with the specification's message; this only carries the
// fields there and acts on the outcome (data-success: see success-actions.ts, plus "login").
import { ApiFailure, apiCall, type Envelope } from "./api-client.ts";
import { isCountingDown } from "./countdown.ts";
import { clearFormErrors, fieldOfRefusal, showFormError } from "./form-errors.ts";
import { rememberUser, type ConsoleUser } from "./console-data.ts";
import { parseLocalTime } from "./local-time.ts";
import { runSuccessAction } from "./success-actions.ts";
import { resetTurnstile, withTurnstile } from "./turnstile.ts";

export function formToJson(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement)) continue;
    if (!element.name || element.disabled) continue;
    if (element instanceof HTMLInputElement && element.type === "checkbox" && element.dataset.jsonType === "csv") {
      // Several boxes with one name make one comma list of the checked values.
      const list = typeof body[element.name] === "string" ? (body[element.name] as string) : "";
      body[element.name] = element.checked ? (list ? `${list},${element.value}` : element.value) : list;
    } else if (element instanceof HTMLInputElement && element.type === "checkbox") {
      body[element.name] = element.checked;
    } else if (element instanceof HTMLInputElement && element.type === "radio") {
      if (element.checked) body[element.name] = element.value;
    } else if (element.dataset.jsonType === "number") {
      body[element.name] = element.value === "" ? 0 : Number(element.value);
    } else if (
      element.dataset.jsonType === "datetime" &&
      element.dataset.never &&
      form.querySelector<HTMLInputElement>(element.dataset.never)?.checked
    ) {
      // The field's "never" switch is on (date-pickers.ts).
      body[element.name] = -1;
    } else if (element.dataset.jsonType === "datetime") {
      // Local "yyyy-MM-dd HH:mm:ss" (or -1) becomes unix seconds; anything else goes as typed so
      // the server answers with the specification's message.
      body[element.name] = parseLocalTime(element.value) ?? element.value;
    } else {
      body[element.name] = element.value;
    }
  }
  return body;
}

/** After any sign-in (password, WeChat, OAuth): keep the user for the console and go to /token. */
export function finishLogin(user: ConsoleUser): void {
  // The password was right and the account has two-factor on: the second step comes next.
  if ((user as ConsoleUser & { require_2fa?: boolean }).require_2fa) {
    window.location.href = "/login?step=2fa";
    return;
  }
  rememberUser(user);
  // A default password needs no toast here: every console page is the password gate until it changes.
  window.location.href = "/token";
}

function afterLogin(envelope: Envelope): void {
  finishLogin(envelope.data as ConsoleUser);
}

/** GET forms send their fields as the query string (e.g. GET /api/oauth/wechat?code=). */
function requestOf(form: HTMLFormElement, method: string, url: string): { url: string; body?: Record<string, unknown> } {
  const body = formToJson(form);
  delete body["cf-turnstile-response"];
  if (method !== "GET") return { url: withTurnstile(form, url), body };
  const target = new URL(url, window.location.origin);
  for (const [key, value] of Object.entries(body)) target.searchParams.set(key, String(value));
  return { url: withTurnstile(form, target.pathname + target.search) };
}

/**
 * Parts of a form the server asks for only sometimes (the setup code of a fresh gateway's root:
 * <div data-asked-for="setup_code_required" hidden> with disabled fields): a refusal whose data
 * has that flag shows them and enables their fields, which are then sent with the next submit.
 */
function showAskedFor(form: HTMLFormElement, envelope: Envelope | undefined): void {
  const data = envelope?.data;
  if (!data || typeof data !== "object") return;
  for (const part of Array.from(form.querySelectorAll<HTMLElement>("[data-asked-for]"))) {
    if ((data as Record<string, unknown>)[part.dataset.askedFor!] !== true) continue;
    const wasHidden = part.hidden;
    part.hidden = false;
    const fields = Array.from(part.querySelectorAll<HTMLInputElement>("input"));
    for (const field of fields) field.disabled = false;
    if (wasHidden) fields[0]?.focus();
    else fields[0]?.select();
  }
}

function succeed(form: HTMLFormElement, envelope: Envelope): void {
  const action = form.dataset.success ?? "toast";
  if (action === "login") afterLogin(envelope);
  else runSuccessAction(form, action, envelope);
}

export function installApiForms(): void {
  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.apiForm) return;
    event.preventDefault();
    const [method, url] = form.dataset.apiForm.split(" ") as [string, string];
    const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
    submit?.setAttribute("disabled", "");
    submit?.classList.add("loading");
    // A drawer's form (data-inline-errors) shows a refusal inside itself, beside the field the
    // server names, where the user is looking; other forms say it in a toast.
    const inline = form.dataset.inlineErrors !== undefined;
    try {
      const request = requestOf(form, method, url);
      const envelope = await apiCall(method, request.url, request.body, inline);
      if (inline) clearFormErrors(form);
      succeed(form, envelope);
    } catch (error) {
      // apiCall told the user what went wrong (but for an inline refusal); the answer may ask for more.
      if (inline && error instanceof ApiFailure && error.envelope)
        showFormError(form, error.envelope.message || error.message, fieldOfRefusal(error.envelope.data));
      if (error instanceof ApiFailure) showAskedFor(form, error.envelope);
    } finally {
      if (submit && !isCountingDown(submit)) submit.removeAttribute("disabled");
      submit?.classList.remove("loading");
      // A Turnstile token is good for one check; the next submit needs a fresh one.
      resetTurnstile(form);
    }
  });
}
