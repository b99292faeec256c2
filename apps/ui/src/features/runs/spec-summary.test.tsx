import { RunSpecSchema, type RunSpecInput } from "@taillab/api";
import { screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { SpecSummary } from "./spec-summary.tsx";

const ENDPOINT = { url: "http://127.0.0.1:9000" };
const ALL_OPS = new Set(["PUT", "GET", "DELETE"] as const);

function targetOf(spec: Partial<RunSpecInput>): string {
  renderUi(
    <SpecSummary
      spec={RunSpecSchema.parse({ clients: [4], samples: [64], objectSize: ["4KiB"], ...spec })}
      ranOps={ALL_OPS}
    />,
  );
  const terms = [...screen.getByTestId("spec-summary").querySelectorAll("dt")];
  const target = terms.find((term) => ["Target", "目标"].includes(term.textContent ?? ""));
  return target?.nextElementSibling?.textContent ?? "";
}

describe("SpecSummary", () => {
  afterEach(async () => {
    await i18next.changeLanguage("en");
  });

  it.each([
    [
      { testbed: { replicas: 1, profile: "steady" } },
      "embedded testbed, 1 replica, profile “steady”",
    ],
    [
      { testbed: { replicas: 2, profile: "steady" } },
      "embedded testbed, 2 replicas, profile “steady”",
    ],
    [{ endpoints: [ENDPOINT] }, "1 endpoint"],
    [{ endpoints: [ENDPOINT, { ...ENDPOINT, url: "http://127.0.0.1:9001" }] }, "2 endpoints"],
  ] as const)("names the target of %j in English: %s", (spec, text) => {
    expect(targetOf(spec as Partial<RunSpecInput>)).toBe(text);
  });

  it("lists only the phases that ran: a live lab's reads are not write → read → cleanup", () => {
    renderUi(
      <SpecSummary
        spec={RunSpecSchema.parse({
          clients: [16],
          samples: [512],
          objectSize: ["4KiB"],
          workload: { ops: "get:100" },
        })}
        ranOps={new Set(["GET"] as const)}
      />,
    );
    const terms = [...screen.getByTestId("spec-summary").querySelectorAll("dt")];
    const phases = terms.find((term) => term.textContent === "Phases");
    expect(phases?.nextElementSibling?.textContent).toBe("read");
  });

  it("names the target in Chinese", async () => {
    await i18next.changeLanguage("zh-CN");
    expect(targetOf({ testbed: { replicas: 2, profile: "steady", seed: 1 } })).toBe(
      "内置测试床，2 个副本，延迟配置“steady”",
    );
  });

  it("says what explicit points span, not each one as 1-512-8 KiB", () => {
    renderUi(
      <SpecSummary
        spec={RunSpecSchema.parse({
          clients: [1],
          samples: [512],
          objectSize: ["8KiB"],
          points: [
            { clients: 1, samples: 512, objectSize: "8KiB" },
            { clients: 1, samples: 2, objectSize: "2MiB" },
          ],
        })}
        ranOps={ALL_OPS}
      />,
    );
    expect(screen.getByTestId("spec-summary").textContent).toContain(
      "2 points · 1 client · 8 KiB–2 MiB",
    );
  });
});
