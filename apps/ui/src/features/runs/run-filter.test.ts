import type { RunIndexEntry } from "@taillab/api";
import { describe, expect, it } from "vitest";
import {
  filterRuns,
  libraryEndpoints,
  libraryTags,
  NO_FILTER,
  runKind,
  sortFigure,
  sortRuns,
  type RunFilter,
  type RunSort,
} from "./run-filter.ts";
import { indexEntry, onePointSpan } from "./test-support/run-fixtures.ts";

const LAB = "Tail latency lab";
const isLabName = (name: string) => name.startsWith(LAB);

const older = indexEntry({
  id: "20250301-a",
  name: "MinIO 1 KiB writes",
  tags: ["lab-2", "minio"],
  createdAt: "2025-03-01T09:00:00.000Z",
  endpoint: "http://10.0.0.5:9000/",
});
const newer = indexEntry({
  id: "20250302-b",
  name: "Hedged reads",
  tags: ["lab-3"],
  notes: "replica 2 stalls every 500 requests",
  createdAt: "2025-03-02T09:00:00.000Z",
  mode: "hedged",
  headline: [
    { op: "PUT", p50Ms: 4, p99Ms: 30, p999Ms: 80, opsPerSec: 500, errors: 0 },
    { op: "GET", p50Ms: 2, p99Ms: 8, p999Ms: 20, opsPerSec: 2000, errors: 0 },
  ],
});
const newest = indexEntry({
  id: "20250303-c",
  name: "Tied reads",
  tags: ["lab-3", "minio"],
  createdAt: "2025-03-03T09:00:00.000Z",
  status: "interrupted",
  headline: [],
});
/** A sweep whose first point is its fastest: its row must speak for the slowest too. */
const sweep = indexEntry({
  id: "20250304-d",
  name: "Sizes 4 KiB to 1 MiB",
  createdAt: "2025-03-04T09:00:00.000Z",
  points: [
    { clients: 4, samples: 100, objectSizeBytes: 4096 },
    { clients: 4, samples: 100, objectSizeBytes: 1 << 20 },
  ],
  headline: [{ op: "GET", p50Ms: 1, p99Ms: 2, p999Ms: 3, opsPerSec: 4000, errors: 0 }],
  headlineSpan: [
    {
      op: "GET",
      points: 2,
      p50Ms: { low: 1, high: 9 },
      p99Ms: { low: 2, high: 95 },
      p999Ms: { low: 3, high: 120 },
      opsPerSec: { low: 90, high: 4000 },
      errors: 0,
    },
    onePointSpan({ op: "DELETE", p50Ms: 1, p99Ms: 500, p999Ms: 900, opsPerSec: 9000, errors: 0 }),
  ],
});
const lab = indexEntry({
  id: "20250305-e",
  name: `${LAB} (hedged)`,
  createdAt: "2025-03-05T09:00:00.000Z",
});
const imported = indexEntry({
  id: "20250306-f",
  name: "s3bench on ceph",
  createdAt: "2025-03-06T09:00:00.000Z",
  importedFrom: "s3bench",
  endpoint: "http://10.0.0.5:9000/",
});
const library = [older, newest, sweep, newer, imported, lab];
const ids = (runs: RunIndexEntry[]) => runs.map((run) => run.id);

describe("library filters", () => {
  it.each<[string, Partial<RunFilter>, string[]]>([
    ["nothing: all, as given", {}, ids(library)],
    ["a name, any case", { query: "hedged" }, ["20250302-b", "20250305-e"]],
    ["a tag", { query: "minio" }, ["20250301-a", "20250303-c"]],
    ["the notes", { query: "stalls" }, ["20250302-b"]],
    ["the id", { query: "0301-a" }, ["20250301-a"]],
    ["the endpoint", { query: "10.0.0.5" }, ["20250301-a", "20250306-f"]],
    ["every word must match", { query: "reads lab-3 tied" }, ["20250303-c"]],
    ["a tag filter", { tag: "lab-3" }, ["20250303-c", "20250302-b"]],
    ["a tag filter and words", { query: "hedged", tag: "lab-3" }, ["20250302-b"]],
    ["a status", { status: "interrupted" }, ["20250303-c"]],
    ["an endpoint", { endpoint: "http://10.0.0.5:9000/" }, ["20250301-a", "20250306-f"]],
    [
      "the testbed",
      { endpoint: "testbed" },
      ["20250303-c", "20250304-d", "20250302-b", "20250305-e"],
    ],
    ["sweeps", { kind: "sweep" }, ["20250304-d"]],
    ["single points", { kind: "point" }, ["20250301-a", "20250303-c", "20250302-b"]],
    ["built-in labs", { kind: "lab" }, ["20250305-e"]],
    ["imported runs", { kind: "imported" }, ["20250306-f"]],
    ["filters together", { status: "complete", kind: "point", query: "reads" }, ["20250302-b"]],
    ["no match", { query: "ceph", kind: "sweep" }, []],
  ])("%s", (_name, filter, expected) => {
    expect(ids(filterRuns(library, { ...NO_FILTER, ...filter }, isLabName))).toEqual(expected);
  });

  it("tells a run's kind: imported before lab before sweep", () => {
    const importedLab = { ...lab, importedFrom: "s3bench" as const };
    expect([importedLab, lab, sweep, older].map((run) => runKind(run, isLabName))).toEqual([
      "imported",
      "lab",
      "sweep",
      "point",
    ]);
  });

  it("lists every tag once, alphabetically, and the testbed before other endpoints", () => {
    expect(libraryTags(library)).toEqual(["lab-2", "lab-3", "minio"]);
    expect(libraryEndpoints(library)).toEqual(["testbed", "http://10.0.0.5:9000/"]);
  });
});

describe("library sort", () => {
  it("sorts a sweep by its worst p99 and best ops/s over all points, never its cleanup", () => {
    expect(sortFigure(sweep, "p99")).toBe(95);
    expect(sortFigure(sweep, "opsPerSec")).toBe(4000);
    expect(sortFigure(newer, "p99")).toBe(30);
    expect(sortFigure(newest, "p99")).toBeNull();
  });

  it.each<[string, RunSort, string[]]>([
    ["newest first", { key: "date", descending: true }, ["f", "e", "d", "c", "b", "a"]],
    ["oldest first", { key: "date", descending: false }, ["a", "b", "c", "d", "e", "f"]],
    ["name A to Z", { key: "name", descending: false }, ["b", "a", "f", "d", "e", "c"]],
    ["name Z to A", { key: "name", descending: true }, ["c", "e", "d", "f", "a", "b"]],
    // The interrupted run has no figures: last, whichever way.
    ["worst p99 first", { key: "p99", descending: true }, ["d", "b", "f", "e", "a", "c"]],
    ["best p99 first", { key: "p99", descending: false }, ["f", "e", "a", "b", "d", "c"]],
    ["most ops/s first", { key: "opsPerSec", descending: true }, ["d", "b", "f", "e", "a", "c"]],
  ])("%s", (_name, sort, expected) => {
    const letters = sortRuns(library, sort).map((run) => run.id.slice(-1));
    expect(letters).toEqual(expected);
  });

  it("sorts names as shown, digits by value", () => {
    const named = ["Run 10", "run 9", "Run 100"].map((name, index) =>
      indexEntry({ id: `r${index}`, name }),
    );
    const shown = sortRuns(named, { key: "name", descending: false }, (run) => run.name, "en");
    expect(shown.map((run) => run.name)).toEqual(["run 9", "Run 10", "Run 100"]);
  });
});
