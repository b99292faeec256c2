import { RUN_FOLDER_SCHEMA_VERSION } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { parseRunExport, runExport, runExportJson } from "./run-json.ts";
import { syntheticRun } from "./test-support/synthetic-run.ts";

describe("run JSON export", () => {
  const run = { ...syntheticRun({ name: "export me", mode: "tied" }), intervalLog: "" };

  it("writes a schema-versioned export that reads back unchanged", () => {
    const json = runExportJson(run);
    const data = JSON.parse(json);
    expect(data.schemaVersion).toBe(RUN_FOLDER_SCHEMA_VERSION);
    expect(data.kind).toBe("taillab-run");
    expect(Object.keys(data)).toEqual([
      "schemaVersion",
      "kind",
      "meta",
      "summary",
      "histograms",
      "intervalLog",
      "intervals",
    ]);
    expect(json.endsWith("}\n")).toBe(true);
    const parsed = parseRunExport(json);
    expect(parsed).toEqual({ ok: true, run: runExport(run) });
  });

  it("writes each second's percentiles with their intervals, and reads exports made before them", () => {
    const data = JSON.parse(runExportJson(run));
    const [second] = data.intervals[0].intervals;
    expect(second.percentileIntervals.p50).toEqual({
      lo: expect.any(Number),
      hi: expect.any(Number),
    });
    expect(second.percentileIntervals.p50.lo).toBeLessThanOrEqual(second.p50Ms);
    delete data.intervals;
    const older = parseRunExport(JSON.stringify(data));
    expect(older.ok && older.run.intervals).toBeUndefined();
  });

  it("keeps histograms but no raw records or series", () => {
    const data = JSON.parse(runExportJson(run, { indent: 0 }));
    expect(data.histograms).toHaveLength(2);
    expect(data.latencySeries).toBeUndefined();
  });

  it.each([
    ["{", /not JSON/],
    ['{"kind":"other"}', /not a TailLab run export \(kind is "other"/],
    ['{"kind":"taillab-run","schemaVersion":9}', /schema version 9 is not supported/],
    [
      `{"kind":"taillab-run","schemaVersion":${RUN_FOLDER_SCHEMA_VERSION},"meta":{}}`,
      /invalid run export: meta\.\w+/,
    ],
  ])("explains why %s is not a run export", (json, reason) => {
    const parsed = parseRunExport(json);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });
});
