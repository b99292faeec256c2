import { readFile } from "node:fs/promises";

/** VmHWM, the process's peak resident set so far, in MB; null once it is gone. */
export async function peakRssMb(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => null);
  const kib = status?.match(/^VmHWM:\s+(\d+) kB$/m)?.[1];
  return kib === undefined ? null : Number(kib) / 1024;
}
