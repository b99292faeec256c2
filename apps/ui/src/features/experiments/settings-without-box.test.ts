import { describe, expect, it } from "vitest";
import { settingsWithoutBox } from "./settings-without-box.ts";

describe("settings the builder has no box for", () => {
  it.each([
    ["a spec of boxed settings", { clients: [4], objectSize: [1024], mode: "hedged" }, []],
    [
      "the CLI's defaults, as a stored run holds them",
      {
        bucket: "loadgen",
        createBucket: false,
        hedge: { minSamples: 20, budgetPercent: 10 },
        openLoop: { rateHz: 5, seed: 1 },
        workload: { ops: "get:100", listPageSize: 100, seed: 1 },
      },
      [],
    ],
    [
      "what a spec file or the CLI set otherwise",
      {
        bucket: "lab",
        workers: 2,
        untilSteady: { percentile: 99 },
        hedge: { minSamples: 50 },
        workload: { ops: "get:100", seed: 7 },
      },
      [
        { path: "bucket", value: '"lab"' },
        { path: "workers", value: "2" },
        { path: "untilSteady", value: '{"percentile":99}' },
        { path: "hedge.minSamples", value: "50" },
        { path: "workload.seed", value: "7" },
      ],
    ],
  ])("%s", (_, spec, kept) => {
    expect(settingsWithoutBox(spec)).toEqual(kept);
  });
});
