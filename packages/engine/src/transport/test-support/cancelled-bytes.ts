import { expect } from "vitest";

/**
 * The bytes of an attempt cancelled on the wire: those its connection moved both ways while it
 * was on it, headers included, so more than its payload.
 */
export function expectCancelledBytes(bytes: number, payload: number): void {
  expect(bytes).toBeGreaterThan(payload);
}
