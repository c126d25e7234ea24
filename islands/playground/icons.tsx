/** @jsxImportSource react */
// The playground's icons: lucide's SVG text (the same set as the server pages), one import each.
import { Code, Columns2, Copy, ImagePlus, Pencil, RefreshCw, Send, SlidersHorizontal, Square, Trash2, X } from "lucide-static";

const icons = {
  code: Code,
  compare: Columns2,
  copy: Copy,
  image: ImagePlus,
  edit: Pencil,
  regenerate: RefreshCw,
  send: Send,
  settings: SlidersHorizontal,
  stop: Square,
  delete: Trash2,
  close: X,
} as const;

export type IconName = keyof typeof icons;

const sized = new Map<IconName, string>();

/** The SVG is lucide's own text, not user input. */
export function ActionIcon(props: { name: IconName }) {
  let svg = sized.get(props.name);
  if (!svg) {
    svg = icons[props.name].replace("<svg", '<svg aria-hidden="true" class="size-4"').replace(/class="lucide[^"]*"/, "");
    sized.set(props.name, svg);
  }
  // biome-ignore lint/security/noDangerouslySetInnerHtml: lucide's own SVG text, bundled, never user input
  return <span className="inline-flex shrink-0" dangerouslySetInnerHTML={{ __html: svg }} />;
}
