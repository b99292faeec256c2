import { describe, expect, it } from "vitest";
import { runSlug } from "./report-export.ts";

describe("runSlug", () => {
  it.each([
    ["Quick run", "20261122-030102-ab12cd", "quick-run-20261122-030102-ab12cd"],
    ["run 20261122-030102-ab12cd", "20261122-030102-ab12cd", "run-20261122-030102-ab12cd"],
    ["尾延迟", "20261122-030102-ab12cd", "run-20261122-030102-ab12cd"],
  ])("names %j (%s) once by name and once by id", (name, runId, slug) => {
    expect(runSlug(name, runId)).toBe(slug);
  });
});
