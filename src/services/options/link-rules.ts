// Links an administrator sets that the console puts into href and src attributes (TopUpLink,
// Logo, ChatLink, ChatLink2, the Chats templates). They are read the way a browser reads them
// (the WHATWG URL parser drops the tabs, newlines and leading spaces that hide "java\tscript:"),
// checked when saved, and checked again where they are rendered, so a value stored before these
// rules existed cannot reach a page either.

/** Schemes that run script or read local data instead of opening a page or an app. */
const unsafeSchemes = new Set(["javascript:", "vbscript:", "data:", "file:", "blob:", "about:", "filesystem:"]);
const base = "https://base.invalid/";

function schemeOf(value: string): string | undefined {
  try {
    return new URL(value, base).protocol;
  } catch {
    return undefined;
  }
}

/** An http(s) address, or a path on this site. */
export function isWebLink(value: string): boolean {
  const scheme = schemeOf(value);
  return scheme === "https:" || scheme === "http:";
}

export const webLinkOrEmpty = (value: string) => (isWebLink(value) ? value : "");

/**
 * A chat template: an http(s) address, or an app's own link (the defaults open AMA and OpenCat
 * with ama:// and opencat://), never a scheme that runs script or reads local data.
 */
export function isSafeChatTemplate(template: string): boolean {
  const scheme = schemeOf(template.replaceAll("{key}", "sk-key").replaceAll("{address}", "https%3A%2F%2Fexample.com"));
  return scheme !== undefined && !unsafeSchemes.has(scheme);
}
