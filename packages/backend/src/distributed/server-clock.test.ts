import { describe, expect, it } from "vitest";
import { clockIsOff, clockOffset } from "./server-clock.ts";

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
});
