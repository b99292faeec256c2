import { parentPort, workerData } from "node:worker_threads";
import { ScheduleClaims, ScheduleReleases, type ScheduleBuffers } from "../open-loop-schedule.ts";

/**
 * One thread of the schedule ring's test, with the engine's own claim and release code: a
 * pacer that never sleeps (request i's "start" is i, released as soon as it has a slot), or a
 * worker that claims, does a little work (slower than the pacer, so the ring stays full and each
 * claim frees the slot the pacer writes next) and counts the claims whose start is not their own
 * request's.
 */
const { buffers, role, requests } = workerData as {
  buffers: ScheduleBuffers;
  role: "pacer" | "worker";
  requests: number;
};

if (role === "pacer") {
  const releases = new ScheduleReleases(buffers);
  for (let index = 0; index < requests; index += 1) {
    while (!releases.hasSlotFor(index)) {
      // Spin: the pacer waits for a slot without yielding the core.
    }
    releases.write(index, index);
    releases.release(index + 1);
  }
  releases.end();
  parentPort?.postMessage({ claimed: 0, wrong: 0 });
} else {
  const claims = new ScheduleClaims(buffers);
  let claimed = 0;
  let wrong = 0;
  let work = 0;
  for (;;) {
    const claim = claims.claim();
    if (claim === null) {
      if (claims.exhausted) break;
      continue;
    }
    claimed += 1;
    if (claim.intendedStartUs !== claim.index) wrong += 1;
    for (let step = 0; step < 50; step += 1) work = (work * 31 + step) | 0;
  }
  parentPort?.postMessage({ claimed, wrong, work });
}
