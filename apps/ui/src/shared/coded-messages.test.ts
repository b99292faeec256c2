import {
  coded,
  ENGLISH_MESSAGES,
  englishOf,
  LatencyProfileSchema,
  parseFields,
} from "@taillab/api";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { initI18n } from "../app/i18n.ts";
import { codedMessages } from "./coded-messages.ts";
import { sayWith } from "./said.ts";
import { profileErrorSaid } from "./testbed-setup-fields.tsx";

if (!i18next.isInitialized) initI18n();

const paramsOf = (template: string) => [...template.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

describe("the coded messages", () => {
  it.each(Object.entries(ENGLISH_MESSAGES))(
    "%s says the same params in Chinese",
    (code, english) => {
      const chinese = (codedMessages["zh-CN"] as Record<string, string>)[code] ?? "";
      expect(chinese).not.toBe("");
      expect(paramsOf(chinese)).toEqual(paramsOf(english));
    },
  );

  it("says a spec file's unknown fields in Chinese, the names as written", () => {
    const parsed = parseFields(LatencyProfileSchema, { serviceTime: { kind: "none" }, stal: {} });
    if (parsed.ok) throw new Error("a profile with an unknown field was accepted");
    const [error] = parsed.errors;
    if (!error) throw new Error("no error");
    expect(sayWith(i18next.getFixedT("zh-CN"), error)).toBe("未知字段“stal”——是否想写“stalls”？");
  });

  it.each([
    ["a service time that is not an object", { serviceTime: 5 }],
    ["an unknown kind of service time", { serviceTime: { kind: "gamma" } }],
    ["a negative median", { serviceTime: { kind: "lognormal", medianMs: -1, sigma: 0.2 } }],
    [
      "a zero median, a sigma past 3",
      { serviceTime: { kind: "lognormal", medianMs: 0, sigma: 9 } },
    ],
    ["a fixed time past a minute", { serviceTime: { kind: "fixed", ms: 70_000 } }],
    [
      "a stall probability past 1",
      { serviceTime: { kind: "none" }, stalls: { probability: 2, durationMs: "1s" } },
    ],
    ["slots that are not whole", { serviceTime: { kind: "none" }, queue: { slots: 1.5 } }],
    [
      "a noisy neighbour out of range",
      {
        serviceTime: { kind: "none" },
        noisyNeighbour: { replica: 99, everyMs: 1000, forMs: 2000, factor: 0.5 },
      },
    ],
    [
      "error rates over 1",
      { serviceTime: { kind: "none" }, errors: { slowDownRate: 0.6, resetRate: 0.6 } },
    ],
  ])("says every problem of a custom latency profile in Chinese: %s", (_case, profile) => {
    const parsed = parseFields(LatencyProfileSchema, profile);
    if (parsed.ok) throw new Error("a bad profile was accepted");
    const zh = i18next.getFixedT("zh-CN");
    for (const error of parsed.errors) {
      expect(error.code, `${error.field}: ${error.message}`).toBeDefined();
      const said = sayWith(zh, profileErrorSaid(`testbed.profile.${error.field}`, error));
      // Quoted: the field and the values a user types, as written; "ms" is a unit.
      const words = said.replace(/“[^”]*”/g, "").match(/[A-Za-z]{3,}/g) ?? [];
      expect(words, said).toEqual([]);
      expect(said).toContain(`“${error.field}”`);
    }
  });

  it("says a nested message in the UI's language, params filled in", () => {
    const message = coded("quoted", {
      value: "0",
      problem: coded("countTooSmall", { unit: coded("unitClient") }),
    });
    const said = { message: englishOf(message), ...message };
    expect(sayWith(i18next.getFixedT("en"), said)).toBe("“0”: expected at least 1 client");
    expect(sayWith(i18next.getFixedT("zh-CN"), said)).toBe("“0”：至少需要 1 个客户端");
  });

  it("falls back to the backend's English for a code, or a nested one, it does not know", () => {
    const zh = i18next.getFixedT("zh-CN");
    expect(sayWith(zh, { message: "later words", code: "fromANewerBackend", params: {} })).toBe(
      "later words",
    );
    const nested = { code: "quoted", params: { value: "x", problem: { code: "new", params: {} } } };
    expect(sayWith(zh, { message: "“x”: new words", ...nested })).toBe("“x”: new words");
    expect(sayWith(zh, { message: "no code at all" })).toBe("no code at all");
  });
});
