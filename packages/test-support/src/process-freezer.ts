import { fork } from "node:child_process";
import { join } from "node:path";

export interface ProcessFreezer {
  /** Lets the process run again and stops freezing it. */
  stop(): Promise<void>;
}

/**
 * Holds process `pid` off the CPU for `holdMs` out of every `periodMs`, from a process of its own
 * (src/freezer/freeze-loop.ts), until stopped: a client that could not run, made without a hook
 * in the code under test. Freezing this very process is allowed: the freezer runs elsewhere.
 */
export async function holdProcessOffCpu(
  pid: number,
  { holdMs, periodMs }: { holdMs: number; periodMs: number },
): Promise<ProcessFreezer> {
  if (!(holdMs > 0 && periodMs > holdMs)) {
    throw new Error(
      `holdProcessOffCpu: expected 0 < holdMs < periodMs, got ${holdMs}, ${periodMs}`,
    );
  }
  const child = fork(
    join(import.meta.dirname, "freezer", "freeze-loop.ts"),
    [pid, holdMs, periodMs].map(String),
    { stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`freeze-loop exited with ${code} at start`)));
  });
  return {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
