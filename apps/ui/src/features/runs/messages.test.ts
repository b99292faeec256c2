import { REPORT_MESSAGES } from "@taillab/report";
import { describe, expect, it } from "vitest";
import { runsMessages } from "./messages.ts";
import source from "./messages.ts?raw";

/** Every string in a catalogue, by its dotted key. */
function leaves(value: unknown, key = ""): [string, string][] {
  if (typeof value === "string") return [[key, value]];
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([name, inner]) =>
    leaves(inner, key ? `${key}.${name}` : name),
  );
}

describe("the run screens' catalogue", () => {
  it("writes no English string the report's catalogue already has: it takes those from there", () => {
    const reportWords = new Set(leaves(REPORT_MESSAGES.en).map(([, value]) => value));
    const englishBlock = source.slice(source.indexOf("  en: {"), source.indexOf('  "zh-CN": {'));
    const written = [...englishBlock.matchAll(/^\s*("?[\w-]+"?):\s*"((?:[^"\\]|\\.)*)",?$/gm)].map(
      ([, key = "", value = ""]) => `${key}: ${JSON.parse(`"${value}"`) as string}`,
    );
    expect(written.length).toBeGreaterThan(100);
    expect(written.filter((pair) => reportWords.has(pair.slice(pair.indexOf(": ") + 2)))).toEqual(
      [],
    );
  });

  it("writes no Chinese string the report's catalogue already has: it takes those from there", () => {
    // Words Chinese does not inflect: the screens' "Tag", "Points", "Replicas" and "Phase" are the
    // report's "Tags", "Point", "replica" and "Phases" in another number, not the same label.
    const uninflected = new Set(["标签", "测试点", "副本", "阶段"]);
    const reportWords = new Set(
      leaves(REPORT_MESSAGES["zh-CN"])
        .map(([, value]) => value)
        .filter((value) => !uninflected.has(value)),
    );
    const chineseBlock = source.slice(source.indexOf('  "zh-CN": {'));
    const written = [...chineseBlock.matchAll(/^\s*("?[\w-]+"?):\s*"((?:[^"\\]|\\.)*)",?$/gm)].map(
      ([, key = "", value = ""]) => `${key}: ${JSON.parse(`"${value}"`) as string}`,
    );
    expect(written.length).toBeGreaterThan(100);
    expect(written.filter((pair) => reportWords.has(pair.slice(pair.indexOf(": ") + 2)))).toEqual(
      [],
    );
  });

  it("shows the report's words in the report's translation", () => {
    expect(runsMessages["zh-CN"]?.ops).toMatchObject({ PUT: REPORT_MESSAGES["zh-CN"].opNames.PUT });
    expect(runsMessages.en?.charts).toMatchObject({ ladderTitle: REPORT_MESSAGES.en.ladderTitle });
  });
});
