import { clockIsOff } from "@taillab/core";
import { describe, expect, it } from "vitest";
import {
  clockOffset,
  combinedClockOffset,
  nextProbeAtMs,
  type ClockOffset,
} from "./server-clock.ts";

const at = (iso: string) => Date.parse(iso);

describe("clock offset from a Date header", () => {
  it("bounds the offset by the header's second and the request's flight", () => {
    const offset = clockOffset({
      dateHeader: "Tue, 24 Nov 2026 10:00:00 GMT",
      sentAtMs: at("2026-11-24T10:00:00.100Z"),
      receivedAtMs: at("2026-11-24T10:00:00.300Z"),
    });
    // The server read somewhere in [10:00:00, 10:00:01) between 0.1 s and 0.3 s local.
    expect(offset).toEqual({ offsetMs: 300, boundMs: 600 });
    expect(clockIsOff(offset!)).toBe(false);
  });

  it.each([
    { local: "2026-11-24T10:00:03.000Z", off: true },
    { local: "2026-11-24T09:59:57.000Z", off: true },
    { local: "2026-11-24T10:00:01.900Z", off: false },
    { local: "2026-11-24T09:59:59.100Z", off: false },
  ])("a local clock at $local is off by more than 1 s: $off", ({ local, off }) => {
    const offset = clockOffset({
      dateHeader: "Tue, 24 Nov 2026 10:00:00 GMT",
      sentAtMs: at(local),
      receivedAtMs: at(local) + 10,
    });
    expect(clockIsOff(offset!)).toBe(off);
  });

  it("has nothing to say without a date", () => {
    expect(clockOffset({ dateHeader: "soon", sentAtMs: 0, receivedAtMs: 1 })).toBeNull();
  });

  it("narrows the offset to what every sample allows", () => {
    const samples: ClockOffset[] = [
      { offsetMs: 300, boundMs: 600 }, // -300 … 900
      { offsetMs: 500, boundMs: 100 }, // 400 … 600
      { offsetMs: 700, boundMs: 200 }, // 500 … 900
    ];
    expect(combinedClockOffset(samples)).toEqual({ offsetMs: 550, boundMs: 50 });
    expect(combinedClockOffset([])).toBeNull();
    // Samples that cannot all be right: the latest is believed.
    expect(combinedClockOffset([samples[1]!, { offsetMs: 2_000, boundMs: 100 }])).toEqual({
      offsetMs: 2_000,
      boundMs: 100,
    });
  });

  it.each([
    // The server is thought 1.5 s ahead: its next second turns at local …00.500, minus half the trip.
    { offset: 1_500, nowMs: 10_000, tripMs: 20, atMs: 10_490 },
    { offset: 1_500, nowMs: 10_600, tripMs: 20, atMs: 11_490 },
    { offset: -250, nowMs: 10_000, tripMs: 0, atMs: 10_250 },
    // Due as it is sent: now.
    { offset: 0, nowMs: 9_995, tripMs: 10, atMs: 9_995 },
  ])(
    "sends the next look at $atMs for an offset of $offset at $nowMs",
    ({ offset, nowMs, tripMs, atMs }) => {
      expect(nextProbeAtMs({ offsetMs: offset, boundMs: 500 }, nowMs, tripMs)).toBe(atMs);
    },
  );

  it("halves the range with each look sent as the server's second turns", () => {
    // A server 1 234 ms ahead, answering instantly: its Date is floor((t + offset) / 1 s).
    const trueOffsetMs = 1_234;
    const look = (atMs: number) => ({
      dateHeader: new Date(Math.floor((atMs + trueOffsetMs) / 1000) * 1000).toUTCString(),
      sentAtMs: atMs,
      receivedAtMs: atMs + 2,
    });
    let nowMs = 1_000_000_321;
    const offsets = [clockOffset(look(nowMs))!];
    for (let probe = 0; probe < 6; probe += 1) {
      const current = combinedClockOffset(offsets)!;
      nowMs = nextProbeAtMs(current, nowMs + 5, 2);
      offsets.push(clockOffset(look(nowMs))!);
    }
    const narrowed = combinedClockOffset(offsets)!;
    expect(Math.abs(narrowed.offsetMs - trueOffsetMs)).toBeLessThanOrEqual(narrowed.boundMs);
    expect(narrowed.boundMs).toBeLessThan(20);
  });
});
