import { printError } from "./terminal-output.ts";

/**
 * Runs a task that Ctrl-C (or SIGTERM, as Kubernetes sends a pod it deletes) stops through its
 * signal, keeping what it measured; a second Ctrl-C quits at once.
 */
export async function stoppableByInterrupt<T>(
  task: (signal: AbortSignal) => Promise<T>,
  stopping = "stopping: finishing in-flight requests and cleaning up…",
): Promise<T> {
  const stop = new AbortController();
  const onInterrupt = () => {
    if (stop.signal.aborted) process.exit(130);
    printError(`\n${stopping}\n`);
    stop.abort();
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onInterrupt);
  try {
    return await task(stop.signal);
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
  }
}
