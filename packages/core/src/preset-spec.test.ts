import { describe, expect, it } from "vitest";
import { presetRunSpec } from "./preset-spec.ts";
import { parseRunSpec } from "./run-spec-parser.ts";
import { expandSweep } from "./sweep.ts";
import { PRESET_NAMES } from "./workload-presets.ts";

describe("presetRunSpec", () => {
  it.each(PRESET_NAMES.flatMap((name) => [1, 0.1, 0.01].map((scale) => [name, scale] as const)))(
    "%s at scale %d is a valid run spec",
    (name, scale) => {
      const parsed = parseRunSpec(presetRunSpec(name, scale));
      expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    },
  );

  it("runs the labs' size sweep as paired points at a fixed 4 MiB total", () => {
    const parsed = parseRunSpec(presetRunSpec("size-sweep"));
    if (!parsed.ok) throw new Error("invalid preset");
    const points = expandSweep(parsed.spec);
    expect(points[0]).toEqual({ clients: 1, samples: 512, objectSizeBytes: 8192 });
    expect(points.at(-1)).toEqual({ clients: 1, samples: 2, objectSizeBytes: 2 * 1024 * 1024 });
    for (const point of points) expect(point.samples * point.objectSizeBytes).toBe(4 * 1024 * 1024);
  });

  it("gives mixed presets a workload", () => {
    const parsed = parseRunSpec(presetRunSpec("document-backup", 0.01));
    expect(parsed.ok && parsed.spec.workload?.ops).toBeTruthy();
  });
});
