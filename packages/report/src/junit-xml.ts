import { escapeXml, type ThresholdOutcome } from "@taillab/core";

/**
 * JUnit XML of a run's thresholds, one test case per threshold, in the shape CI systems read
 * (GitLab, Jenkins, GitHub's test reporters): testsuites › testsuite › testcase › failure.
 */
export function renderThresholdsJunit(
  runId: string,
  outcomes: readonly ThresholdOutcome[],
  timestamp: string,
): string {
  const failures = outcomes.filter((outcome) => !outcome.held).length;
  const counts = `tests="${outcomes.length}" failures="${failures}" errors="0" skipped="0"`;
  const cases = outcomes.map(({ threshold, held, detail }) => {
    const open = `    <testcase classname="taillab.thresholds" name="${xmlText(threshold.text)}" time="0"`;
    if (held) return `${open}>\n      <system-out>${xmlText(detail)}</system-out>\n    </testcase>`;
    return `${open}>\n      <failure type="threshold" message="${xmlText(detail)}">${xmlText(detail)}</failure>\n    </testcase>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="taillab" ${counts}>`,
    `  <testsuite name="taillab thresholds ${xmlText(runId)}" ${counts} time="0" timestamp="${xmlText(timestamp)}">`,
    ...cases,
    `  </testsuite>`,
    `</testsuites>`,
    "",
  ].join("\n");
}

/** XML 1.0 allows tab, newline and carriage return, and no other control character. */
function allowedInXml(character: string): boolean {
  const code = character.charCodeAt(0);
  return code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** Text and attribute values: the five XML escapes, and no control character XML 1.0 refuses. */
function xmlText(text: string): string {
  return escapeXml([...text].filter(allowedInXml).join(""));
}
