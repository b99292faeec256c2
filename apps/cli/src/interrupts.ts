import { EXIT } from "./exit-codes.ts";
import { printError } from "./terminal-output.ts";

/**
 * Runs a task that Ctrl-C or SIGTERM (as Kubernetes sends a pod it deletes) stops through its
 * signal, keeping what it measured. A second Ctrl-C quits at once; a second SIGTERM does not
 * (a kubelet may repeat it, and sends SIGKILL when it has waited long enough).
 */
export async function stoppableByInterrupt<T>(
  task: (signal: AbortSignal) => Promise<T>,
  /** What is said when it stops (at that moment: it may name what the task has done). */
  stopping: () => string,
): Promise<T> {
  const stop = new AbortController();
  const onStop = (signalName: NodeJS.Signals) => {
    if (stop.signal.aborted) {
      if (signalName === "SIGINT") process.exit(EXIT.interrupted);
      return;
    }
    printError(`\n${stopping()}\n`);
    stop.abort();
  };
  process.on("SIGINT", onStop);
  process.on("SIGTERM", onStop);
  try {
    return await task(stop.signal);
  } finally {
    process.off("SIGINT", onStop);
    process.off("SIGTERM", onStop);
  }
}
