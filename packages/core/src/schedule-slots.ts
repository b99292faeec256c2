import { createArrivalSchedule, type ArrivalScheduleSpec } from "./arrival-schedule.ts";
import { ownsScheduledRequest, type ShardRole } from "./shard-plan.ts";

/**
 * What an open loop's pacer releases: `count` requests of the schedule from `startUs`, none at
 * or after the deadline. A shard of a distributed run releases only its own requests of the
 * run's schedule (ownsScheduledRequest), at their intended starts in the whole schedule.
 */
export interface ScheduleOrder {
  schedule: ArrivalScheduleSpec;
  startUs: number;
  count: number;
  deadlineUs: number | null;
  shard: ShardRole | null;
}

export interface ScheduleSlots {
  /**
   * The intended start (run µs, whole) of the pacer's next request, or null once the count is
   * reached or the next start would be at or after the deadline.
   */
  next(): number | null;
}

export function createScheduleSlots({
  schedule,
  startUs,
  count,
  deadlineUs,
  shard,
}: ScheduleOrder): ScheduleSlots {
  const offsets = createArrivalSchedule(schedule);
  let planned = 0;
  // The whole schedule's request number, of which a shard takes its own.
  let g = 0;
  return {
    next() {
      while (planned < count) {
        // Whole µs, as every time of a record is (the schedule's offsets are fractional).
        const intendedUs = Math.round(startUs + offsets.nextOffsetUs());
        if (deadlineUs !== null && intendedUs >= deadlineUs) return null;
        const owned = shard === null || ownsScheduledRequest(g, shard);
        g += 1;
        if (!owned) continue;
        planned += 1;
        return intendedUs;
      }
      return null;
    },
  };
}
