import type { RunSummary } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { renderRunReport } from "./html-report.ts";
import { formatNotRunS3bench, formatServerLost } from "./server-lost-text.ts";
import { syntheticRun } from "./test-support/synthetic-run.ts";

/** A 3-point sweep whose server stopped answering in point 1's PUT phase and never came back. */
function goneInFirstPoint() {
  const run = syntheticRun({ spec: { clients: [8, 4, 2] }, ops: ["PUT"] });
  const at = "2026-01-02T06:12:32.400Z";
  const summary: RunSummary = {
    ...run.summary,
    status: "serverLost",
    points: run.summary.points.slice(0, 1),
    serverLosses: [
      {
        pointIndex: 0,
        phase: "PUT",
        at,
        sinceMs: 32_400,
        silentMs: 3_000,
        failures: 8,
        lastError: "ClientTimeout",
      },
    ],
    serverGone: {
      at,
      sinceMs: 32_400,
      probeError: "ClientTimeout",
      notRun: [
        { pointIndex: 0, phase: "GET" },
        { pointIndex: 1, phase: "PUT" },
        { pointIndex: 1, phase: "GET" },
      ],
    },
  };
  return { ...run, summary };
}

describe("a run whose server stopped answering", () => {
  it("lists each phase it never started as an s3bench heading saying so, with no figures; a point never started is headed by its parameters", () => {
    const { summary } = goneInFirstPoint();
    const notRun = "Not run: the server stopped answering at 06:12:32 UTC (32.4 s into the run)";
    expect(formatNotRunS3bench(summary)).toBe(
      [
        `Results Summary for Read Operation(s)\n${notRun}\n`,
        `=== clients 4, samples 256, object size 32KiB ===\nResults Summary for Write Operation(s)\n${notRun}\n`,
        `Results Summary for Read Operation(s)\n${notRun}\n`,
      ].join("\n"),
    );
    expect(formatServerLost(summary)).toBe(
      "Server stopped answering at 06:12:32 UTC (32.4 s into the run): 8 requests in a row got no answer over 3.0 s, the last ClientTimeout; the PUT phase of point 1 ended early\n" +
        "It did not answer again (ClientTimeout): the run ended there; 3 phases not run\n",
    );
  });

  it("says nothing for a run whose server always answered", () => {
    const { summary } = syntheticRun();
    expect(formatNotRunS3bench(summary)).toBe("");
    expect(formatServerLost(summary)).toBe("");
  });

  it("the HTML report says it in its language, status included", () => {
    const run = goneInFirstPoint();
    const en = renderRunReport(run, { language: "en" });
    expect(en).toContain(
      "The server stopped answering at 06:12:32 UTC: PUT (1) ended early. It did not answer again, so the run ended there; not run: GET (1), PUT (2), GET (2).",
    );
    const zh = renderRunReport(run, { language: "zh-CN" });
    expect(zh).toContain("服务器自 06:12:32 UTC 起不再应答");
  });
});
