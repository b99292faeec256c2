import { act, fireEvent, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { threeSeconds } from "../../shared/test-support/sample-data.ts";
import { RatesOverTimeChart } from "./rates-over-time-chart.tsx";

afterEach(async () => {
  await act(() => i18next.changeLanguage("en"));
});

const INTERVALS = threeSeconds();

describe("RatesOverTimeChart", () => {
  it.each([
    ["throughput", "Throughput over time", 270],
    ["errors", "Errors over time", 3],
  ] as const)("titles the %s chart and counts what it draws", (kind, title, total) => {
    renderUi(<RatesOverTimeChart intervals={INTERVALS} kind={kind} />);
    expect(screen.getByRole("heading", { name: title })).toBeTruthy();
    const chart = screen.getByTestId(`${kind}-over-time-chart`);
    expect(chart.dataset.seconds).toBe("3");
    expect(chart.dataset.total).toBe(String(total));
  });

  it("draws the MiB moved and errors stacked by code where the seconds kept them", () => {
    const counted = threeSeconds({ bytes: () => 2 * 1024 * 1024 });
    renderUi(<RatesOverTimeChart intervals={counted} kind="data" />);
    expect(screen.getByRole("heading", { name: "Data moved over time" })).toBeTruthy();
    expect(screen.getByTestId("data-over-time-chart").dataset.total).toBe("6");
    renderUi(<RatesOverTimeChart intervals={counted} kind="errors" />);
    expect(screen.getByTestId("errors-over-time-note").textContent).toContain(
      "Stacked by error code.",
    );
  });

  it.each(["en", "zh-CN"])(
    "says a run stored before its seconds kept bytes and codes did not record them (%s)",
    async (language) => {
      await act(() => i18next.changeLanguage(language));
      renderUi(<RatesOverTimeChart intervals={INTERVALS} kind="data" />);
      const notRecorded = i18next.t("runs:ratesOverTime.notRecorded");
      expect(notRecorded).toMatch(language === "en" ? /^Not recorded/ : /^未记录/);
      expect(screen.getByTestId("data-over-time-note").textContent).toBe(notRecorded);
      expect(screen.queryByTestId("data-over-time-chart")).toBeNull();
      renderUi(<RatesOverTimeChart intervals={INTERVALS} kind="errors" />);
      expect(screen.getByTestId("errors-over-time-note").textContent).toContain(notRecorded);
      expect(screen.getByTestId("errors-over-time-chart").dataset.total).toBe("3");
    },
  );

  it("says it in Chinese", async () => {
    await act(() => i18next.changeLanguage("zh-CN"));
    renderUi(<RatesOverTimeChart intervals={INTERVALS} kind="errors" />);
    expect(screen.getByRole("heading", { name: "错误随时间的变化" })).toBeTruthy();
    expect(screen.getByTestId("errors-over-time-chart-full-screen").textContent).toBe("全屏");
    // Chinese sentences follow one another without a space.
    expect(screen.getByTestId("errors-over-time-note").textContent).toMatch(/。未记录/);
  });

  it("goes full screen from its button and back with Esc", () => {
    renderUi(<RatesOverTimeChart intervals={INTERVALS} kind="throughput" />);
    const chart = screen.getByTestId("throughput-over-time-chart");
    fireEvent.click(screen.getByTestId("throughput-over-time-chart-full-screen"));
    expect(chart.dataset.fullScreen).toBe("true");
    expect(chart.getAttribute("role")).toBe("dialog");
    fireEvent.keyDown(document, { key: "Escape" });
    expect(chart.dataset.fullScreen).toBe("false");
  });
});
