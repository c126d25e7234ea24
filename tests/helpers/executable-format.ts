// Reads what kind of executable a file is from its own headers (ELF, Mach-O, PE), so the suite
// checks the release's files for other systems without the `file` command.
import { closeSync, openSync, readSync } from "node:fs";

export type ExecutableFormat =
  | {
      kind: "elf";
      bits: number;
      littleEndian: boolean;
      type: "executable" | "shared" | "other";
      machine: "x86-64" | "aarch64" | string;
      interpreter?: string;
    }
  | {
      kind: "mach-o";
      bits: 64;
      cpu: "x86-64" | "arm64" | string;
      type: "executable" | "other";
      /** An embedded code signature whose page hashes match the file (macOS on arm64 runs nothing unsigned). */
      signature: "valid" | "invalid" | "none";
    }
  | { kind: "pe"; machine: "x86-64" | "arm64" | string; pe32plus: boolean; subsystem: "console" | "gui" | string }
  | { kind: "unknown" };

function readAt(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

const elfMachines = new Map([
  [0x3e, "x86-64"],
  [0xb7, "aarch64"],
]);
const machOCpus = new Map([
  [0x01000007, "x86-64"],
  [0x0100000c, "arm64"],
]);
const peMachines = new Map([
  [0x8664, "x86-64"],
  [0xaa64, "arm64"],
]);
const peSubsystems = new Map([
  [2, "gui"],
  [3, "console"],
]);

function readElf(path: string, head: Buffer): ExecutableFormat {
  const bits = head[4] === 2 ? 64 : 32;
  const littleEndian = head[5] === 1;
  if (bits !== 64 || !littleEndian) return { kind: "elf", bits, littleEndian, type: "other", machine: "unknown" };
  const type = head.readUInt16LE(16);
  const machine = head.readUInt16LE(18);
  // The program headers: PT_INTERP names the dynamic loader (which C library it needs).
  const programHeaders = Number(head.readBigUInt64LE(32));
  const entrySize = head.readUInt16LE(54);
  const count = head.readUInt16LE(56);
  let interpreter: string | undefined;
  const table = readAt(path, programHeaders, entrySize * count);
  for (let index = 0; index < count; index++) {
    const entry = table.subarray(index * entrySize, (index + 1) * entrySize);
    if (entry.readUInt32LE(0) !== 3) continue; // PT_INTERP
    const offset = Number(entry.readBigUInt64LE(8));
    const size = Number(entry.readBigUInt64LE(32));
    interpreter = readAt(path, offset, size).toString("latin1").replace(/\0+$/, "");
  }
  return {
    kind: "elf",
    bits,
    littleEndian,
    type: type === 2 ? "executable" : type === 3 ? "shared" : "other",
    machine: elfMachines.get(machine) ?? `0x${machine.toString(16)}`,
    interpreter,
  };
}

function readPe(path: string, head: Buffer): ExecutableFormat {
  const peOffset = head.readUInt32LE(0x3c);
  const header = readAt(path, peOffset, 24 + 72);
  if (header.toString("latin1", 0, 4) !== "PE\0\0") return { kind: "unknown" };
  const machine = header.readUInt16LE(4);
  const optionalMagic = header.readUInt16LE(24);
  const subsystem = header.readUInt16LE(24 + 68);
  return {
    kind: "pe",
    machine: peMachines.get(machine) ?? `0x${machine.toString(16)}`,
    pe32plus: optionalMagic === 0x20b,
    subsystem: peSubsystems.get(subsystem) ?? String(subsystem),
  };
}

export function executableFormat(path: string): ExecutableFormat {
  const head = readAt(path, 0, 64);
  if (head.length >= 64 && head.readUInt32BE(0) === 0x7f454c46) return readElf(path, head);
  if (head.length >= 32 && head.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = head.readUInt32LE(4);
    return {
      kind: "mach-o",
      bits: 64,
      cpu: machOCpus.get(cpu) ?? `0x${cpu.toString(16)}`,
      type: head.readUInt32LE(12) === 2 ? "executable" : "other",
      signature: machOSignature(path, head),
    };
  }
  if (head.length >= 64 && head.toString("latin1", 0, 2) === "MZ") return readPe(path, head);
  return { kind: "unknown" };
}

/**
 * Checks the ad-hoc signature Bun writes into a Mach-O file: the LC_CODE_SIGNATURE load command
 * points at a SuperBlob whose CodeDirectory holds a hash of every page of the file up to its
 * code limit. macOS refuses to start the file on Apple silicon if one of them does not match.
 */
function machOSignature(path: string, head: Buffer): "valid" | "invalid" | "none" {
  const commandCount = head.readUInt32LE(16);
  const commandBytes = head.readUInt32LE(20);
  const commands = readAt(path, 32, commandBytes);
  let signature: { offset: number; size: number } | undefined;
  for (let index = 0, at = 0; index < commandCount; index++) {
    const command = commands.readUInt32LE(at);
    if (command === 0x1d) signature = { offset: commands.readUInt32LE(at + 8), size: commands.readUInt32LE(at + 12) };
    at += commands.readUInt32LE(at + 4);
  }
  if (!signature) return "none";
  const blob = readAt(path, signature.offset, signature.size);
  if (blob.readUInt32BE(0) !== 0xfade0cc0) return "invalid"; // CSMAGIC_EMBEDDED_SIGNATURE
  const count = blob.readUInt32BE(8);
  for (let index = 0; index < count; index++) {
    const offset = blob.readUInt32BE(12 + index * 8 + 4);
    if (blob.readUInt32BE(offset) !== 0xfade0c02) continue; // CSMAGIC_CODEDIRECTORY
    const directory = blob.subarray(offset);
    const hashOffset = directory.readUInt32BE(16);
    const codeSlots = directory.readUInt32BE(28);
    const codeLimit = directory.readUInt32BE(32);
    const hashSize = directory[36]!;
    const hashType = directory[37]!;
    const pageSize = 2 ** directory[39]!;
    if (hashType !== 2 || hashSize !== 32) return "invalid"; // SHA-256
    if (codeSlots !== Math.ceil(codeLimit / pageSize) || codeLimit !== signature.offset) return "invalid";
    const fd = openSync(path, "r");
    try {
      const page = Buffer.alloc(pageSize);
      for (let slot = 0; slot < codeSlots; slot++) {
        const read = readSync(fd, page, 0, Math.min(pageSize, codeLimit - slot * pageSize), slot * pageSize);
        const hash = new Bun.CryptoHasher("sha256").update(page.subarray(0, read)).digest();
        if (!hash.equals(directory.subarray(hashOffset + slot * hashSize, hashOffset + (slot + 1) * hashSize))) return "invalid";
      }
    } finally {
      closeSync(fd);
    }
    return "valid";
  }
  return "invalid";
}
