import type { ClientHealth, PhaseSummary, TailShare } from "@taillab/api";
import { formatMs } from "@taillab/report";
import { act, screen } from "@testing-library/react";
import i18next from "i18next";
import { afterEach, describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { TailBreakdownCard } from "./tail-breakdown-card.tsx";
import { runDetailFixture } from "./test-support/run-fixtures.ts";

afterEach(async () => {
  await act(() => i18next.changeLanguage("en"));
});

const PHASE = runDetailFixture({ ops: ["GET"] }).summary.points[0]!.phases[0]!;
const TAIL = PHASE.tail!;

/** The phase as measured with client health: a quarter of the slowest 1 %'s server was stall. */
function withStall(): PhaseSummary {
  const client: ClientHealth = {
    version: 1,
    verdict: { keptUp: false, reasons: ["event-loop-delay"] },
    figures: {
      cpuCores: 1,
      availableCores: 2,
      busiestWorkerCpu: 0.8,
      eventLoopDelayP99Ms: 40,
      stallShare: 0.2,
      starts: PHASE.requests,
      missedStarts: 0,
      behindMs: 0,
      shed: 0,
    },
    workers: 1,
    clientsPerWorker: 8,
    tailStallMs: { p99: TAIL.p99.serverMs / 4, p999: TAIL.p999.serverMs / 4 },
    arrivals: null,
    seconds: [],
  };
  return { ...PHASE, client };
}

const cellText = (row: HTMLElement, part: string) =>
  row.querySelector(`[data-part="${part}"]`)?.firstChild?.textContent;

describe("TailBreakdownCard", () => {
  it.each([
    ["en", "Client stall"],
    ["zh-CN", "客户端停顿"],
  ])("takes the client's own stall out of the server's slice (%s)", async (language, heading) => {
    await act(() => i18next.changeLanguage(language));
    renderUi(<TailBreakdownCard phase={withStall()} />);
    const headings = [...screen.getByTestId("tail-table").querySelectorAll("th")].map(
      (cell) => cell.textContent,
    );
    expect(headings).toContain(heading);
    const [slowest1] = screen.getAllByTestId("tail-row");
    expect(cellText(slowest1!, "clientStall")).toBe(formatMs(TAIL.p99.serverMs / 4));
    expect(cellText(slowest1!, "server")).toBe(formatMs((TAIL.p99.serverMs * 3) / 4));
  });

  it.each([
    ["en", ["Connect", "Upload"]],
    ["zh-CN", ["建立连接", "上传"]],
  ])("shows the connect and the upload as slices of their own (%s)", async (language, names) => {
    await act(() => i18next.changeLanguage(language));
    renderUi(<TailBreakdownCard phase={PHASE} />);
    const headings = [...screen.getByTestId("tail-table").querySelectorAll("th")].map(
      (cell) => cell.textContent,
    );
    expect(headings).toEqual(expect.arrayContaining(names));
    const [slowest1] = screen.getAllByTestId("tail-row");
    expect(cellText(slowest1!, "connect")).toBe(formatMs(TAIL.p99.connectMs!));
    expect(cellText(slowest1!, "upload")).toBe(formatMs(TAIL.p99.uploadMs!));
  });

  it.each([
    ["en", "not recorded"],
    ["zh-CN", "未记录"],
  ])("says a run recorded before connects and uploads has none (%s)", async (language, text) => {
    await act(() => i18next.changeLanguage(language));
    const older = ({ connectMs: _c, uploadMs: _u, ...share }: TailShare): TailShare => share;
    renderUi(
      <TailBreakdownCard
        phase={{ ...PHASE, tail: { p99: older(TAIL.p99), p999: older(TAIL.p999) } }}
      />,
    );
    const [slowest1] = screen.getAllByTestId("tail-row");
    expect(cellText(slowest1!, "connect")).toBe(text);
    expect(cellText(slowest1!, "upload")).toBe(text);
    expect(cellText(slowest1!, "server")).toBe(formatMs(TAIL.p99.serverMs));
  });

  it("has no client-stall slice in a run recorded before it was measured", () => {
    renderUi(<TailBreakdownCard phase={PHASE} />);
    const [slowest1] = screen.getAllByTestId("tail-row");
    expect(slowest1!.querySelector('[data-part="clientStall"]')).toBeNull();
    expect(cellText(slowest1!, "server")).toBe(formatMs(TAIL.p99.serverMs));
  });
});
