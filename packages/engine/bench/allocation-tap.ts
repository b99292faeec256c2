/**
 * Preload for the allocation bench: `node --require ./allocation-tap.ts` (worker threads run
 * --require preloads; they skip --import ones). In every thread it counts the bytes the thread's
 * V8 heap allocated and its collections, from a GC profiler's heap sizes before and after each collection (what a
 * collection found in use, less what the last one left, is what was allocated between them), and
 * answers the bench's reads over a broadcast channel (allocation-channel.ts). Buffers' backing
 * stores live outside the V8 heap and are not counted.
 */
import { GCProfiler, getHeapStatistics } from "node:v8";
import { BroadcastChannel, threadId } from "node:worker_threads";
import { ALLOCATION_CHANNEL, type AllocationReading } from "./allocation-channel.ts";

function startCounting(): () => AllocationReading {
  let allocatedBytes = 0;
  let collections = 0;
  let usedBytes = getHeapStatistics().used_heap_size;
  let profiler = new GCProfiler();
  profiler.start();
  return () => {
    for (const { beforeGC, afterGC } of profiler.stop()?.statistics ?? []) {
      allocatedBytes += beforeGC.heapStatistics.usedHeapSize - usedBytes;
      usedBytes = afterGC.heapStatistics.usedHeapSize;
      collections += 1;
    }
    const nowBytes = getHeapStatistics().used_heap_size;
    allocatedBytes += nowBytes - usedBytes;
    usedBytes = nowBytes;
    profiler = new GCProfiler();
    profiler.start();
    return { threadId, allocatedBytes, collections };
  };
}

const read = startCounting();
const channel = new BroadcastChannel(ALLOCATION_CHANNEL);
// The tap must never keep a thread alive.
channel.unref();
channel.onmessage = (event) => {
  if ((event as { data: unknown }).data !== "read") return;
  channel.postMessage(read());
};
