import { expect } from "vitest";
import type { RequestTimeline } from "../object-transport.ts";

/** ready ≤ sent ≤ headers ≤ first byte ≤ end, as every outcome's timeline must be. */
export function expectOrderedTimeline(timeline: RequestTimeline): void {
  expect(timeline.readyUs).toBeLessThanOrEqual(timeline.sentUs);
  expect(timeline.sentUs).toBeLessThanOrEqual(timeline.headersUs);
  expect(timeline.headersUs).toBeLessThanOrEqual(timeline.firstByteUs);
  expect(timeline.firstByteUs).toBeLessThanOrEqual(timeline.endUs);
}
