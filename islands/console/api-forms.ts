// Forms that submit JSON to /api: <form data-api-form="POST /api/user/login" data-success="...">.
// The server validates and answers with the specification's message; this only carries the
// fields there and acts on the outcome (data-success: see success-actions.ts, plus "login").
import { apiCall, type Envelope } from "./api-client.ts";
import { rememberUser, type ConsoleUser } from "./console-data.ts";
import { parseLocalTime } from "./form-helpers.ts";
import { runSuccessAction } from "./success-actions.ts";

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

function afterLogin(form: HTMLFormElement, envelope: Envelope): void {
  const user = envelope.data as ConsoleUser;
  rememberUser(user);
  const body = formToJson(form);
  if (user.username === "root" && body.password === "123456") sessionStorage.setItem("default-password-warning", "1");
  window.location.href = "/token";
}

function succeed(form: HTMLFormElement, envelope: Envelope): void {
  const action = form.dataset.success ?? "toast";
  if (action === "login") return afterLogin(form, envelope);
  runSuccessAction(form, action, envelope);
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
    try {
      const envelope = await apiCall(method, url, formToJson(form));
      succeed(form, envelope);
    } catch {
      // apiCall already told the user what went wrong.
    } finally {
      submit?.removeAttribute("disabled");
      submit?.classList.remove("loading");
    }
  });
}
