import { RunSpecSchema } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { parseKeyChoice } from "./key-chooser.ts";
import { parseOperationMix } from "./operation-mix.ts";
import { minSizeBytes, parseSizeDistribution } from "./size-distribution.ts";
import {
  expandPreset,
  listPresets,
  PRESET_MIN_SIZE_BYTES,
  PRESET_NAMES,
  type MixedWorkloadPreset,
  type SweepWorkloadPreset,
} from "./workload-presets.ts";

const SCALES = [1, 0.1, 0.01];
const MIXED = [
  "document-backup",
  "file-sharing",
  "software-backup",
  "video-surveillance",
  "photo-album",
];
const SWEEPS = ["size-sweep", "concurrency-sweep"];

function mixed(name: string, scale?: number): MixedWorkloadPreset {
  const preset = expandPreset(name, scale);
  if (preset.kind !== "mixed") throw new Error(`${name} is not a mixed workload`);
  return preset;
}

function sweep(name: string, scale?: number): SweepWorkloadPreset {
  const preset = expandPreset(name, scale);
  if (preset.kind !== "sweep") throw new Error(`${name} is not a sweep`);
  return preset;
}

describe("listPresets", () => {
  it("lists every preset once, in order, with a one-line description", () => {
    const presets = listPresets();
    expect(presets.map((preset) => preset.name)).toEqual([...MIXED, ...SWEEPS]);
    expect(PRESET_NAMES).toEqual([...MIXED, ...SWEEPS]);
    for (const { description } of presets) {
      expect(description.length).toBeGreaterThan(20);
      expect(description).not.toMatch(/\n/);
    }
  });

  it("tells mixed workloads from sweeps", () => {
    const kinds = Object.fromEntries(listPresets().map((preset) => [preset.name, preset.kind]));
    for (const name of MIXED) expect(kinds[name]).toBe("mixed");
    for (const name of SWEEPS) expect(kinds[name]).toBe("sweep");
  });
});

describe.each(MIXED)("%s", (name) => {
  it.each(SCALES)("expands at scale %d into text the parsers accept and sound counts", (scale) => {
    const preset = mixed(name, scale);
    const size = parseSizeDistribution(preset.objectSize);
    const ops = parseOperationMix(preset.ops);
    const keys = parseKeyChoice(preset.keys);
    expect([size.ok, ops.ok, keys.ok]).toEqual([true, true, true]);
    if (size.ok) expect(minSizeBytes(size.value)).toBeGreaterThanOrEqual(PRESET_MIN_SIZE_BYTES);
    for (const count of [preset.prepareObjects, preset.requests, preset.clients]) {
      expect(Number.isInteger(count) && count >= 1).toBe(true);
    }
    expect(preset.requests).toBeGreaterThanOrEqual(preset.clients);
    // The spec schema checks clients and samples as it will for these runs.
    const spec = RunSpecSchema.safeParse({
      clients: preset.clients,
      samples: preset.requests,
      objectSize: PRESET_MIN_SIZE_BYTES,
    });
    expect(spec.success).toBe(true);
  });

  it("shrinks sizes, not counts, with the scale", () => {
    const [full, tenth, hundredth] = SCALES.map((scale) => mixed(name, scale));
    for (const preset of [tenth, hundredth]) {
      expect(preset).toMatchObject({
        name,
        kind: "mixed",
        ops: full?.ops,
        keys: full?.keys,
        prepareObjects: full?.prepareObjects,
        requests: full?.requests,
        clients: full?.clients,
      });
    }
    expect(new Set([full?.objectSize, tenth?.objectSize, hundredth?.objectSize]).size).toBe(3);
  });
});

describe("scaled object sizes", () => {
  it.each([
    ["document-backup", 1, "4MB"],
    ["document-backup", 0.1, "400KB"],
    ["document-backup", 0.01, "40KB"],
    ["document-backup", 1e-6, "1KiB"],
    ["file-sharing", 1, "lognormal:1MB:1GB"],
    ["file-sharing", 0.01, "lognormal:10KB:10MB"],
    ["file-sharing", 0.001, "lognormal:1KiB:1MB"],
    ["software-backup", 0.01, "lognormal:1MB:100MB"],
    ["video-surveillance", 0.1, "lognormal:50MB:500MB"],
    ["photo-album", 0.01, "lognormal:10KB:100KB"],
    ["photo-album", 1e-4, "1KiB"],
  ])("%s at scale %d: %s", (name, scale, objectSize) => {
    expect(mixed(name, scale).objectSize).toBe(objectSize);
  });
});

describe("size-sweep", () => {
  it("fixes the total at 4 MiB: 8 KiB × 512 … 2 MiB × 2, one client", () => {
    expect(sweep("size-sweep").points).toEqual([
      { clients: 1, samples: 512, objectSize: "8KiB" },
      { clients: 1, samples: 256, objectSize: "16KiB" },
      { clients: 1, samples: 128, objectSize: "32KiB" },
      { clients: 1, samples: 64, objectSize: "64KiB" },
      { clients: 1, samples: 32, objectSize: "128KiB" },
      { clients: 1, samples: 16, objectSize: "256KiB" },
      { clients: 1, samples: 8, objectSize: "512KiB" },
      { clients: 1, samples: 4, objectSize: "1MiB" },
      { clients: 1, samples: 2, objectSize: "2MiB" },
    ]);
  });
});

describe("concurrency-sweep", () => {
  it("runs 5, 10 … 50 clients on 64 KiB objects", () => {
    const { points } = sweep("concurrency-sweep");
    expect(points.map((point) => point.clients)).toEqual([5, 10, 15, 20, 25, 30, 35, 40, 45, 50]);
    expect(new Set(points.map((point) => point.objectSize))).toEqual(new Set(["64KiB"]));
    expect(new Set(points.map((point) => point.samples))).toEqual(new Set([1000]));
  });
});

describe.each(SWEEPS)("%s", (name) => {
  it.each(SCALES)("expands at scale %d into points that are valid run specs", (scale) => {
    for (const point of sweep(name, scale).points) {
      const parsed = RunSpecSchema.safeParse(point);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    }
  });

  it("is the labs' exact configuration at every scale", () => {
    expect(sweep(name, 0.01)).toEqual(sweep(name, 1));
  });
});

describe("expandPreset", () => {
  it("defaults to scale 1", () => {
    expect(expandPreset("file-sharing")).toEqual(expandPreset("file-sharing", 1));
  });

  it("returns a fresh object each time", () => {
    const first = sweep("size-sweep");
    (first.points[0] as { samples: number }).samples = 1;
    expect(sweep("size-sweep").points[0]?.samples).toBe(512);
  });

  it("names the presets when the name is unknown", () => {
    expect(() => expandPreset("backup")).toThrow(
      'unknown preset "backup"; expected one of document-backup, file-sharing, software-backup, video-surveillance, photo-album, size-sweep, concurrency-sweep',
    );
    expect(() => expandPreset("toString")).toThrow(/unknown preset "toString"/);
  });

  it.each([0, -0.5, 1.5, Number.NaN])("refuses scale %d", (scale) => {
    expect(() => expandPreset("document-backup", scale)).toThrow(
      /scale must be above 0 and at most 1/,
    );
  });
});
