// A refused form says why where the user is looking: beside the field the server named
// (`data.field` of the envelope), or above the submit button when it named none. Forms inside a
// dialog need this most: the dialog covers the page's toast corner.

const errorAttribute = "data-form-error";

/** The input the server named, if this form has one by that name. */
function fieldOf(form: HTMLFormElement, name: string): HTMLElement | null {
  const item = form.elements.namedItem(name);
  if (item instanceof RadioNodeList) return (item[0] as HTMLElement | undefined) ?? null;
  return item instanceof HTMLElement ? item : null;
}

export function clearFormErrors(form: HTMLFormElement): void {
  for (const note of Array.from(form.querySelectorAll(`[${errorAttribute}]`))) note.remove();
  for (const field of Array.from(form.querySelectorAll("[aria-invalid=true]"))) {
    field.removeAttribute("aria-invalid");
    field.removeAttribute("aria-errormessage");
  }
}

function note(message: string, kind: "error" | "success", id?: string): HTMLElement {
  const element = document.createElement("p");
  element.setAttribute(errorAttribute, "");
  element.setAttribute("role", kind === "error" ? "alert" : "status");
  element.className = kind === "error" ? "text-error mt-1 text-sm" : "text-success mt-1 text-sm";
  if (id) element.id = id;
  element.textContent = message;
  return element;
}

/** Shows the message beside the named field (true), or at the form's foot (false: no such field). */
export function showFormError(form: HTMLFormElement, message: string, fieldName?: string): boolean {
  clearFormErrors(form);
  const field = fieldName ? fieldOf(form, fieldName) : null;
  if (field) {
    const id = `${form.id || "form"}-${fieldName}-error`;
    const container = field.closest(".form-control, fieldset") ?? field.parentElement ?? form;
    container.append(note(message, "error", id));
    // A hidden input (a quota kept in units behind a money field) stands for the one people see.
    const shown =
      field instanceof HTMLInputElement && field.type === "hidden"
        ? container.querySelector<HTMLElement>("input:not([type=hidden])")
        : field;
    const target = shown ?? field;
    target.setAttribute("aria-invalid", "true");
    target.setAttribute("aria-errormessage", id);
    target.focus();
    target.scrollIntoView({ block: "nearest" });
    return true;
  }
  const foot = note(message, "error");
  foot.className = "alert alert-error text-sm";
  const submit = form.querySelector("button[type=submit]");
  if (submit) submit.before(foot);
  else form.append(foot);
  foot.scrollIntoView({ block: "nearest" });
  return false;
}

/** The field the server named in a refusal's data, if it did. */
export function fieldOfRefusal(data: unknown): string | undefined {
  if (!data || typeof data !== "object") return undefined;
  const field = (data as { field?: unknown }).field;
  return typeof field === "string" ? field : undefined;
}
