import { BUILTIN_PROFILE_NAMES } from "@taillab/api";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { initI18n } from "../app/i18n.ts";
import { opTag } from "../features/runs/op-tag.ts";
import { profileSummaryFigures } from "./testbed-setup-fields.tsx";

beforeAll(() => {
  initI18n();
});

describe("a built-in latency profile's summary", () => {
  it("quotes the profile's own figures", () => {
    expect(profileSummaryFigures("steady")).toEqual({ medianMs: 5, p99Ms: 9 });
    expect(profileSummaryFigures("stalls")).toMatchObject({ stallPercent: 1, stallSeconds: 1 });
    expect(profileSummaryFigures("noisy-neighbour")).toMatchObject({
      replica: 0,
      factor: 10,
      forSeconds: 2,
      everySeconds: 10,
    });
  });

  it.each(BUILTIN_PROFILE_NAMES)("%s is said in Chinese, every figure filled in", (name) => {
    const t = i18next.getFixedT("zh-CN", "common");
    const summary = t(`testbed.profileSummaries.${name}`, profileSummaryFigures(name));
    expect(summary).toMatch(/\p{Script=Han}/u);
    expect(summary).not.toContain("{{");
    // Only the profile names and the queueing model's notation stay in Latin letters.
    expect((summary.match(/[A-Za-z]{3,}/g) ?? []).filter((word) => word !== "steady")).toEqual([]);
  });
});

describe("an operation's tag", () => {
  it("keeps S3's verbs and says the compound operations in words", () => {
    const t = i18next.getFixedT("zh-CN", "runs");
    expect(opTag("GET", t)).toBe("GET");
    expect(opTag("LIST_BUCKETS", t)).toBe("列举桶");
    expect(opTag("MULTIPART", t)).toMatch(/\p{Script=Han}/u);
  });
});
