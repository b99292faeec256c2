import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { SweepSection } from "./sweep-section.tsx";
import { runDetailFixture } from "./test-support/run-fixtures.ts";

describe("sweep charts", () => {
  it("switch throughput and ops/s between a linear and a log axis, as the latency charts do", () => {
    const summary = runDetailFixture({
      spec: { clients: [1], samples: [64], objectSize: ["4KiB", "64KiB", "1MiB"] },
      ops: ["PUT", "GET"],
    }).summary;
    renderUi(<SweepSection runs={[{ label: "sizes", summary }]} testId="sweep" />);
    for (const chart of ["sweep-size-mbps", "sweep-size-ops", "sweep-size-latency-GET"]) {
      const log = screen.getByTestId(`${chart}-log`) as HTMLInputElement;
      const before = log.checked;
      fireEvent.click(log);
      expect(screen.getByTestId(chart).dataset.log).toBe(String(!before));
    }
  });
});
