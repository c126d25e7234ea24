// The server process's memory as the kernel counts it: now (VmRSS) and at its peak (VmHWM).
import { readFileSync } from "node:fs";

const field = (pid: number, name: string) =>
  Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

export const residentBytes = (pid: number) => field(pid, "VmRSS");
export const peakResidentBytes = (pid: number) => field(pid, "VmHWM");
export const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));
