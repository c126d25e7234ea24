// Content written by the admin (home page, about, notice, footer): Markdown or HTML, rendered
// on the server and sanitised (no scripts, no event handlers, no javascript: links), or an
// https:// address shown in a sandboxed frame.
import type { marked as Marked } from "marked";
import type SanitizeHtml from "sanitize-html";

type Libraries = { marked: typeof Marked; sanitizeHtml: typeof SanitizeHtml; allowedTags: string[] };
let loaded: Libraries | undefined;

/**
 * The Markdown parser and the sanitiser (with its HTML parser and entity tables) are loaded the
 * first time admin content is shown rather than at every start-up: evaluating them took about
 * 6 ms of each start of the executable, and many sites set no such content.
 */
function libraries(): Libraries {
  if (loaded) return loaded;
  const sanitizeHtml = require("sanitize-html") as typeof SanitizeHtml;
  const { marked } = require("marked") as { marked: typeof Marked };
  const allowedTags = [
    ...sanitizeHtml.defaults.allowedTags,
    "img",
    "h1",
    "h2",
    "h5",
    "h6",
    "del",
    "ins",
    "sup",
    "sub",
    "details",
    "summary",
  ];
  return (loaded = { marked, sanitizeHtml, allowedTags });
}

export function sanitizeAdminHtml(html: string): string {
  const { sanitizeHtml, allowedTags } = libraries();
  return sanitizeHtml(html, {
    allowedTags,
    allowedAttributes: {
      a: ["href", "title", "target", "rel"],
      img: ["src", "alt", "title", "width", "height"],
      "*": ["class", "id", "align"],
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https", "data"] },
    transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
  });
}

export function renderMarkdown(source: string): string {
  return sanitizeAdminHtml(libraries().marked.parse(source, { async: false, gfm: true, breaks: true }));
}

function isEmbeddableAddress(source: string): boolean {
  return /^https:\/\/[^\s"'<>]+$/.test(source.trim());
}

export function RichContent(props: { source: string; class?: string; frameTitle: string }) {
  const source = props.source.trim();
  if (isEmbeddableAddress(source)) {
    return (
      <iframe
        src={source}
        title={props.frameTitle}
        class="h-[calc(100vh-8rem)] w-full border-0"
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
        referrerpolicy="no-referrer"
      />
    );
  }
  // Sanitised by renderMarkdown, so it is inserted as HTML.
  const safeHtml = renderMarkdown(source);
  return <div class={`prose max-w-none ${props.class ?? ""}`}>{safeHtml}</div>;
}
