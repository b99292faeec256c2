/**
 * A testbed interceptor for a run whose cleanup comes after its measuring: the cleanup phase's
 * DELETEs fail (500), so the run deletes what it wrote afterwards in bulk (DeleteObjects), and
 * that bulk delete waits until `release()`. `cleanupStarting` resolves when it is asked for.
 */
export interface HeldCleanup {
  interceptor: (request: { operation: string }) => Promise<HeldCleanupDecision>;
  cleanupStarting: Promise<void>;
  release(): void;
}

type HeldCleanupDecision = { fault: { status: number; code: string; message: string } } | undefined;

export function heldCleanup(): HeldCleanup {
  let started = () => {};
  const cleanupStarting = new Promise<void>((resolve) => (started = resolve));
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    async interceptor({ operation }) {
      if (operation === "DeleteObject") {
        return { fault: { status: 500, code: "InternalError", message: "held back" } };
      }
      if (operation === "DeleteObjects") {
        started();
        await released;
      }
      return undefined;
    },
    cleanupStarting,
    release,
  };
}
