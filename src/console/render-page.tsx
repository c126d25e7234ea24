// Turns a page's content into the full HTML response with its Content-Security-Policy.
import { optionText } from "../services/options/options.ts";
import { compressedTextResponse } from "../http/compression.ts";
import type { PageContext } from "./page-context.ts";
import { Document, type DocumentOptions } from "./layout/document.tsx";
import { renderedIslands } from "./rendered-islands.ts";
import { Shell } from "./layout/shell.tsx";

export type PageOptions = DocumentOptions & {
  status?: number;
  /** Origins a page's frames may come from (chat links, embedded home page). */
  frameSources?: string[];
  /** Script origins allowed besides externalScripts (a widget whose script tag sits in the page). */
  scriptOrigins?: string[];
  /** Where audio and video may come from (songs of /task live on their provider's servers). */
  mediaSources?: string[];
  /** A full-window tool (the playground) names itself for screen readers only, keeping its height. */
  quietHeading?: boolean;
};

function contentSecurityPolicy(context: PageContext, options: PageOptions): string {
  const scriptOrigins = [...(options.externalScripts ?? []).map((src) => new URL(src).origin), ...(options.scriptOrigins ?? [])];
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${context.nonce}' ${scriptOrigins.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https: http:",
    `media-src 'self' ${(options.mediaSources ?? []).join(" ")}`.trim(),
    "connect-src 'self'",
    `frame-src 'self' https: ${(options.frameSources ?? []).join(" ")}`.trim(),
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "form-action 'self' https: http:",
  ].join("; ");
}

/** A page or fragment, compressed for a browser that accepts it (http/compression.ts). */
export function htmlResponse(context: PageContext, options: PageOptions, html: string): Response {
  return compressedTextResponse(context.request, html, {
    status: options.status ?? 200,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": contentSecurityPolicy(context, options),
      "cache-control": "no-store",
    },
  });
}

/** Whether the page's own markup already names it with a heading of the first level. */
const hasHeading = (content: string) => /<h1[\s>]/.test(content);

export function renderPage(context: PageContext, options: PageOptions, content: JSX.Element): Response {
  // Every page is named on screen: pages without their own <h1> get the document title as one.
  const safeBody = String(content);
  const safeHeading = hasHeading(safeBody)
    ? ""
    : String(
        <h1 class={options.quietHeading ? "sr-only" : "mb-3 text-xl font-semibold"} safe>
          {options.title}
        </h1>,
      );
  const html = (
    <Document context={context} options={options} islands={renderedIslands()}>
      <Shell context={context} notice={optionText("Notice")}>
        {(safeHeading + safeBody) as "safe"}
      </Shell>
    </Document>
  );
  return htmlResponse(context, options, String(html));
}
