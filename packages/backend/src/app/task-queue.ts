/**
 * Runs tasks one at a time, in call order: a store's read-change-write steps must not interleave,
 * or two quick edits could each write a file missing the other's change.
 */
export type TaskQueue = <T>(task: () => Promise<T>) => Promise<T>;

export function createTaskQueue(): TaskQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => {});
    return run;
  };
}
