// Answers as Markdown: marked turns the text into HTML, highlight.js colours code blocks (a
// small set of common languages, to keep the island light), DOMPurify removes anything a model
// (or a prompt injection) could use to run script or leave the page. Each code block gets a
// header with its language and a copy button, handled by the message view.
import DOMPurify from "dompurify";
import { Marked, type Tokens } from "marked";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import c from "highlight.js/lib/languages/c";
import cpp from "highlight.js/lib/languages/cpp";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const languages = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);
hljs.registerAliases(["sh", "shell", "zsh", "console"], { languageName: "bash" });
hljs.registerAliases(["html", "svg"], { languageName: "xml" });
hljs.registerAliases(["js", "jsx", "mjs"], { languageName: "javascript" });
hljs.registerAliases(["ts", "tsx"], { languageName: "typescript" });
hljs.registerAliases(["py"], { languageName: "python" });
hljs.registerAliases(["yml"], { languageName: "yaml" });

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The highlighted HTML of a code text (escaped plain text for a language we do not carry). */
export function highlightCode(text: string, language: string): string {
  return hljs.getLanguage(language) ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
}

const parsers = new Map<string, Marked>();

function parserFor(copyLabel: string): Marked {
  let parser = parsers.get(copyLabel);
  if (!parser) {
    parser = new Marked({ gfm: true, breaks: true });
    parser.use({
      renderer: {
        code({ text, lang }: Tokens.Code) {
          const language = (lang ?? "").trim().split(/\s+/)[0]!.toLowerCase();
          return (
            `<div class="code-block"><div class="code-block-head"><span>${escapeHtml(language || "text")}</span>` +
            `<button type="button" class="btn btn-ghost btn-xs" data-copy-code>${escapeHtml(copyLabel)}</button></div>` +
            `<pre><code class="hljs">${highlightCode(text.replace(/\n$/, ""), language)}</code></pre></div>`
          );
        },
      },
    });
    parsers.set(copyLabel, parser);
  }
  return parser;
}

let linksHooked = false;

/** Sanitised HTML of a Markdown text; links open in a new tab without access to this page. */
export function markdownHtml(source: string, copyLabel: string): string {
  if (!DOMPurify.isSupported) return escapeHtml(source);
  if (!linksHooked) {
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        node.setAttribute("target", "_blank");
        node.setAttribute("rel", "noopener noreferrer nofollow");
      }
    });
    linksHooked = true;
  }
  const html = parserFor(copyLabel).parse(source, { async: false });
  return DOMPurify.sanitize(html, { FORBID_TAGS: ["style", "form", "input", "textarea", "select"], FORBID_ATTR: ["style"] });
}
