import type { ClientSecond } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { ClientWarnings } from "./client-warnings.ts";

function second(startS: number, reasons: ClientSecond["verdict"]["reasons"]): ClientSecond {
  return {
    startMs: startS * 1000,
    cpuCores: 0.5,
    availableCores: 2,
    busiestWorkerCpu: 0.5,
    eventLoopDelayP99Ms: 1,
    stallShare: 0,
    starts: 100,
    missedStarts: reasons.includes("schedule-behind") ? 50 : 0,
    behindMs: reasons.includes("schedule-behind") ? 4200 : 0,
    shed: 0,
    verdict: { keptUp: reasons.length === 0, reasons },
  };
}

describe("ClientWarnings", () => {
  it("warns when the client becomes the bottleneck, once until it kept up a while", () => {
    const warnings = new ClientWarnings();
    expect(warnings.next([second(0, []), second(1, [])])).toBeNull();
    const line = warnings.next([second(2, ["schedule-behind"])]);
    expect(line).toContain("at 2 s TailLab's client was the bottleneck");
    expect(line).toContain("4.2 s behind its schedule");
    expect(line).toContain("fewer clients or a lower rate");
    expect(
      warnings.next([second(2, ["schedule-behind"]), second(3, ["schedule-behind"])]),
    ).toBeNull();
    expect(warnings.next([second(4, ["cpu"])])).toContain("CPU");
    expect(warnings.next([second(5, []), second(6, ["cpu"])])).toBeNull();
    expect(warnings.next([7, 8, 9, 10, 11, 12].map((at) => second(at, [])))).toBeNull();
    expect(warnings.next([second(13, ["cpu"])])).toContain("at 13 s");
  });
});
