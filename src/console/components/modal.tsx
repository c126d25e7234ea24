// A dialog for forms: centred, or as a drawer along the right edge (full width on phones).
// `open` makes the runtime show it as soon as htmx swaps it in; closing needs no script.
import type { Translate } from "../../i18n/i18n.ts";

export function Modal(props: {
  id: string;
  t: Translate;
  title: string;
  drawer?: boolean;
  open?: boolean;
  /** Room for long lines (the channel test dialog's model names). */
  wide?: boolean;
  children?: JSX.Element;
}) {
  const { t } = props;
  return (
    <dialog
      id={props.id}
      class={`modal ${props.drawer ? "modal-end" : ""}`}
      data-open={props.open ? "" : undefined}
      aria-labelledby={`${props.id}-title`}
    >
      <div
        class={
          props.drawer
            ? "modal-box flex h-full max-h-screen w-full max-w-xl flex-col rounded-none"
            : `modal-box w-full ${props.wide ? "max-w-3xl" : "max-w-lg"}`
        }
      >
        <div class="mb-2 flex items-center justify-between gap-2">
          <h3 id={`${props.id}-title`} class="text-lg font-bold" safe>
            {props.title}
          </h3>
          <form method="dialog">
            <button type="submit" class="btn btn-ghost btn-sm btn-circle" aria-label={t("关闭")}>
              {"✕"}
            </button>
          </form>
        </div>
        {/* Children are rendered by our own components. */}
        {props.children as "safe"}
      </div>
      <form method="dialog" class="modal-backdrop">
        <button type="submit" tabindex="-1" aria-label={t("关闭")}>
          {"✕"}
        </button>
      </form>
    </dialog>
  );
}
