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
