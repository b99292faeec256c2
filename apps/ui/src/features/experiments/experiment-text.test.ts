import i18next from "i18next";
import { describe, expect, it } from "vitest";
import "../../shared/test-support/render.tsx";
import { runNameText } from "./experiment-text.ts";

const zh = i18next.getFixedT("zh-CN", "experiments");
const en = i18next.getFixedT("en", "experiments");

describe("a stored run's name", () => {
  it.each([
    ["Object size sweep at fixed total", "固定总量的对象大小扫描"],
    ["Tail latency: normal vs hedged vs tied (hedged)", "尾延迟：普通、对冲与绑定（对冲）"],
    [
      "Tail latency: normal vs hedged vs tied (sideways)",
      "Tail latency: normal vs hedged vs tied (sideways)",
    ],
    ["My MinIO run", "My MinIO run"],
  ])("%s reads %s in Chinese", (name, text) => {
    expect(runNameText(name, zh)).toBe(text);
  });

  it("stays as the backend wrote it in English", () => {
    expect(runNameText("Tail latency: normal vs hedged vs tied (tied)", en)).toBe(
      "Tail latency: normal vs hedged vs tied (tied)",
    );
  });
});
