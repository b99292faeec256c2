/**
 * CPU-bound processes that compete with whatever runs beside them, for tests under load. Each is
 * a child Node process spinning until stopped; one whose parent is gone (killed, say, while it
 * waited on a test runner) notices within a fraction of a second and exits, so none outlives
 * the run.
 */
import { spawn, type ChildProcess } from "node:child_process";

const SPIN = `
const parent = process.ppid;
for (let turn = 0; ; turn++) if (turn % 1e7 === 0 && process.ppid !== parent) process.exit(0);
`;

export interface CpuHogs {
  stop(): void;
}

export function startCpuHogs(count: number): CpuHogs {
  const hogs: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ["-e", SPIN], { stdio: "ignore" }),
  );
  const stop = () => {
    for (const hog of hogs) {
      if (hog.exitCode === null && hog.signalCode === null) hog.kill("SIGKILL");
    }
  };
  process.once("exit", stop);
  return { stop };
}
