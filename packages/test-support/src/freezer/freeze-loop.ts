/**
 * Stops a process for `holdMs` out of every `periodMs` (SIGSTOP, then SIGCONT), as a machine too
 * busy to schedule it would: every thread of it, event loops included, is held. Started by
 * `holdProcessOffCpu` as `node freeze-loop.ts PID HOLD_MS PERIOD_MS`; on SIGTERM, or when its
 * parent goes, it lets the process run and exits.
 */
const [pid, holdMs, periodMs] = process.argv.slice(2).map(Number) as [number, number, number];
let timer: NodeJS.Timeout | undefined;

function hold(): void {
  process.kill(pid, "SIGSTOP");
  timer = setTimeout(release, holdMs);
}

function release(): void {
  process.kill(pid, "SIGCONT");
  timer = setTimeout(hold, periodMs - holdMs);
}

function quit(): void {
  clearTimeout(timer);
  try {
    process.kill(pid, "SIGCONT");
  } catch {
    // The process is gone.
  }
  process.exit(0);
}

process.on("SIGTERM", quit);
process.on("disconnect", quit);
process.send?.("started");
hold();
