import type { RunPointParams } from "@taillab/api";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { initI18n } from "../../app/i18n.ts";
import { pointsText } from "./points-text.ts";

if (!i18next.isInitialized) initI18n();
const KiB = 1024;
const point = (clients: number, samples: number, objectSizeBytes: number): RunPointParams => ({
  clients,
  samples,
  objectSizeBytes,
});

describe("pointsText", () => {
  it.each<[string, RunPointParams[], string]>([
    ["one point", [point(8, 256, 32 * KiB)], "8 clients · 256 × 32 KiB"],
    [
      "a size sweep",
      [point(4, 512, 8 * KiB), point(4, 2, 2048 * KiB)],
      "2 points · 4 clients · 8 KiB–2 MiB",
    ],
    ["one client, the labs' size sweep", [point(1, 512, 8 * KiB)], "1 client · 512 × 8 KiB"],
    [
      "clients and sizes",
      [point(1, 256, KiB), point(8, 256, KiB), point(4, 256, 64 * KiB)],
      "3 points · 1–8 clients · 1 KiB–64 KiB",
    ],
  ])("%s", (_name, points, text) => {
    expect(pointsText(points, i18next.getFixedT("en", "runs"))).toBe(text);
  });
});
