// A progress bar for the long part of an import (the logs), on standard error so the summary on
// standard output stays clean. On a terminal it redraws one line; elsewhere (a log file, CI) it
// prints a line at every tenth.
export type Progress = { advance(count: number): void; finish(): void };

export function progressBar(label: string, total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  let done = 0;
  let lastTenth = -1;
  const width = 30;
  const draw = () => {
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    if (stream.isTTY) {
      const filled = Math.round(fraction * width);
      stream.write(`\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.floor(fraction * 100)}% ${done}/${total}`);
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth > lastTenth) {
      lastTenth = tenth;
      stream.write(`${label}: ${tenth * 10}% (${done}/${total})\n`);
    }
  };
  return {
    advance(count) {
      done += count;
      draw();
    },
    finish() {
      done = Math.max(done, total);
      draw();
      if (stream.isTTY) stream.write("\n");
    },
  };
}
