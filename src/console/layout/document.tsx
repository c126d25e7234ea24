// The HTML document around every page: head with the hashed stylesheet, the theme chosen by
// the visitor, the runtime script, and the bundles of the islands the page rendered.
import type { PageContext } from "../page-context.ts";
import { assetManifest } from "../assets/asset-store.ts";
import { clientTexts } from "./client-texts.ts";
import { htmlLanguageTags } from "../../i18n/languages.ts";

export type DocumentOptions = {
  title: string;
  /** Load htmx for pages that swap fragments. */
  htmx?: boolean;
  /** Extra script URLs a page needs (e.g. a login widget), allowed by its CSP. */
  externalScripts?: string[];
};

/**
 * JSON for a <script type="application/json"> block: "<" escaped so no tag can end it early.
 * Its output is safe to insert raw (callers mark it `as "safe"` for xss-scan).
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** `islands`: those the content rendered (rendered-islands.ts); their bundles load as modules. */
export function Document(props: { context: PageContext; options: DocumentOptions; islands: string[]; children?: JSX.Element }) {
  const { context, options } = props;
  const manifest = assetManifest();
  const session = context.user
    ? { id: context.user.id, username: context.user.username, display_name: context.user.display_name, role: context.user.role }
    : null;
  return (
    <>
      {"<!doctype html>"}
      <html lang={htmlLanguageTags[context.language]} data-theme={context.theme}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{`${options.title} - ${context.status.system_name}`}</title>
          <link rel="icon" href={context.status.logo || "/logo.svg"} />
          <link rel="stylesheet" href={manifest.css} />
          <script type="application/json" id="console-data" nonce={context.nonce}>
            {jsonForScript({ texts: clientTexts(context.t), user: session, language: context.language }) as "safe"}
          </script>
          <script type="module" src={manifest.scripts.console} nonce={context.nonce}></script>
          {options.htmx ? <script src={manifest.scripts.htmx} nonce={context.nonce} defer></script> : ""}
          {props.islands.map((name) => (
            <script type="module" src={manifest.islands[name]} nonce={context.nonce}></script>
          ))}
          {(options.externalScripts ?? []).map((src) => (
            <script src={src} nonce={context.nonce} async defer></script>
          ))}
        </head>
        {props.children as "safe"}
      </html>
    </>
  );
}
