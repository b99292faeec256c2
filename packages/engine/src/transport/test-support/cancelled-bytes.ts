import type { TransportKind } from "@taillab/api";
import { expect } from "vitest";

/**
 * The bytes of an attempt cancelled on the wire: the sdk transport counts its payload; the fast
 * one the bytes its connection moved both ways while it was on it, headers included, so more.
 */
export function expectCancelledBytes(kind: TransportKind, bytes: number, payload: number): void {
  if (kind === "fast") expect(bytes).toBeGreaterThan(payload);
  else expect(bytes).toBe(payload);
}
