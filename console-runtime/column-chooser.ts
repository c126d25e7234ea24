// The column menus of the console's tables (src/console/components/column-chooser.tsx): a
// checkbox changed keeps the table's hidden columns in its cookie (a year, this browser) and
// asks the table region to render itself again without them.
const year = 365 * 24 * 3600;

function save(chooser: HTMLElement): void {
  const table = chooser.dataset.columnChooser!;
  const hidden = [...chooser.querySelectorAll<HTMLInputElement>("[data-column-toggle]")]
    .filter((box) => !box.checked)
    .map((box) => box.dataset.columnToggle!);
  document.cookie = `columns-${table}=${encodeURIComponent(hidden.join(","))}; path=/; max-age=${year}; samesite=lax`;
  const region = document.getElementById(table);
  if (region) window.htmx?.trigger(region, "refresh");
}

export function installColumnChoosers(): void {
  document.addEventListener("change", (event) => {
    const box = (event.target as HTMLElement | null)?.closest<HTMLInputElement>("[data-column-toggle]");
    const chooser = box?.closest<HTMLElement>("[data-column-chooser]");
    if (chooser) save(chooser);
  });
  document.addEventListener("click", (event) => {
    const reset = (event.target as HTMLElement | null)?.closest<HTMLElement>("[data-column-reset]");
    const chooser = reset?.closest<HTMLElement>("[data-column-chooser]");
    if (!chooser) return;
    for (const box of chooser.querySelectorAll<HTMLInputElement>("[data-column-toggle]")) box.checked = true;
    save(chooser);
  });
}
