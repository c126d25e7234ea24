// What an import read, wrote and left out, and why: the dry run prints it instead of writing,
// the real run prints it at the end. Skips are grouped by table and reason with a few examples,
// so a source with ten thousand similar problems gives one readable line.
export type SkipGroup = { table: string; reason: string; count: number; examples: string[] };

export class ImportReport {
  readonly read = new Map<string, number>();
  readonly written = new Map<string, number>();
  readonly skips = new Map<string, SkipGroup>();
  readonly notes: string[] = [];

  countRead(table: string, count = 1): void {
    this.read.set(table, (this.read.get(table) ?? 0) + count);
  }

  countWritten(table: string, count = 1): void {
    this.written.set(table, (this.written.get(table) ?? 0) + count);
  }

  skip(table: string, reason: string, example?: string): void {
    const id = `${table}\u0000${reason}`;
    let group = this.skips.get(id);
    if (!group) this.skips.set(id, (group = { table, reason, count: 0, examples: [] }));
    group.count++;
    if (example !== undefined && group.examples.length < 3) group.examples.push(example);
  }

  note(text: string): void {
    this.notes.push(text);
  }

  render(options: { dryRun: boolean; source: string; schema: string; target: string }): string {
    const lines = [
      `${options.dryRun ? "Dry run: nothing was written" : "Import finished"}`,
      `  from   ${options.source} (${options.schema})`,
      `  into   ${options.target}`,
      "",
      `  ${"table".padEnd(14)} ${"in source".padStart(10)} ${(options.dryRun ? "would write" : "written").padStart(12)}`,
    ];
    for (const [table, read] of this.read) {
      lines.push(`  ${table.padEnd(14)} ${String(read).padStart(10)} ${String(this.written.get(table) ?? 0).padStart(12)}`);
    }
    for (const [table, written] of this.written) {
      if (!this.read.has(table)) lines.push(`  ${table.padEnd(14)} ${"-".padStart(10)} ${String(written).padStart(12)}`);
    }
    if (this.skips.size > 0) {
      lines.push("", options.dryRun ? "Would be skipped or changed:" : "Skipped or changed:");
      for (const group of this.skips.values()) {
        const examples = group.examples.length ? ` (e.g. ${group.examples.join(", ")})` : "";
        lines.push(`  ${group.table}: ${group.count} ${group.reason}${examples}`);
      }
    }
    if (this.notes.length > 0) lines.push("", "Notes:", ...this.notes.map((note) => `  ${note}`));
    return lines.join("\n");
  }
}
