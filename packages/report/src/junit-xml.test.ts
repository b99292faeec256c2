import { parseThreshold, type ThresholdOutcome } from "@taillab/core";
import { readJunitXml } from "@taillab/test-support";
import { describe, expect, it } from "vitest";
import { renderThresholdsJunit } from "./junit-xml.ts";

function outcome(text: string, held: boolean, detail: string): ThresholdOutcome {
  const parsed = parseThreshold(text);
  if (!parsed.ok) throw new Error(text);
  return { threshold: parsed.value, held, detail };
}

describe("renderThresholdsJunit", () => {
  it("writes one test case per threshold, in the shape CI systems read", async () => {
    const xml = renderThresholdsJunit(
      "20261127-230000-abc123",
      [
        // A server's error code may carry a control character XML 1.0 refuses: it is left out.
        outcome("GET p99.9<50ms@ci", false, `GET: 61 ms & "more" <worse>\u0007 (wanted < 50 ms)`),
        outcome("errors<0.1%", true, "GET: 0 % errors (0 of 400)"),
      ],
      "2026-11-27T23:00:00.000Z",
    );
    const cases = await readJunitXml(xml);
    expect(cases).toEqual([
      {
        suite: "taillab thresholds 20261127-230000-abc123",
        classname: "taillab.thresholds",
        name: "GET p99.9<50ms@ci",
        failure: `GET: 61 ms & "more" <worse> (wanted < 50 ms)`,
      },
      {
        suite: "taillab thresholds 20261127-230000-abc123",
        classname: "taillab.thresholds",
        name: "errors<0.1%",
        failure: null,
      },
    ]);
  });

  it("is refused by the reader when its counts disagree with its cases", async () => {
    const xml = renderThresholdsJunit(
      "r",
      [outcome("errors<1", true, "ok")],
      "2026-11-27T23:00:00.000Z",
    );
    await expect(readJunitXml(xml.replaceAll('failures="0"', 'failures="1"'))).rejects.toThrow(
      /failures="1" for 0 failures; <testsuites failures="1"> for 0 failures/,
    );
  });
});
