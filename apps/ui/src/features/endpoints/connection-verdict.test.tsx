import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { BUCKET_REPORT, OK_REPORT } from "../../shared/test-support/sample-data.ts";
import { ConnectionVerdict } from "./connection-verdict.tsx";

describe("ConnectionVerdict", () => {
  it("shows a passing test with the server and the timed requests", () => {
    renderUi(<ConnectionVerdict test={{ pending: false, report: OK_REPORT, error: null }} />);
    const panel = screen.getByTestId("connection-verdict");
    expect(panel.dataset.verdict).toBe("ok");
    expect(panel.textContent).toContain("Connected");
    expect(panel.textContent).toContain("MinIO");
    expect(within(panel).getByText("PUT 3.500 ms")).toBeTruthy();
  });

  it("names the failing check and says what was not tried", () => {
    renderUi(<ConnectionVerdict test={{ pending: false, report: BUCKET_REPORT, error: null }} />);
    const panel = screen.getByTestId("connection-verdict");
    expect(panel.dataset.verdict).toBe("bucket");
    expect(panel.textContent).toContain("Bucket problem");
    expect(panel.textContent).toContain('bucket "loadgen" does not exist (NoSuchBucket)');
    const states = [...panel.querySelectorAll("li")].map((item) => item.dataset.state);
    expect(states).toEqual(["pass", "pass", "fail", "skipped"]);
    expect(panel.textContent).toContain("not tried");
  });

  it("offers to create a bucket that does not exist, and only then", () => {
    const create = vi.fn();
    const { rerender } = renderUi(
      <ConnectionVerdict
        test={{ pending: false, report: BUCKET_REPORT, error: null }}
        onCreateBucket={create}
      />,
    );
    fireEvent.click(screen.getByTestId("create-bucket"));
    expect(create).toHaveBeenCalledTimes(1);
    const forbidden = {
      ...BUCKET_REPORT,
      message: 'the keys are accepted but may not list bucket "loadgen" (AccessDenied)',
    };
    rerender(
      <ConnectionVerdict
        test={{ pending: false, report: forbidden, error: null }}
        onCreateBucket={create}
      />,
    );
    expect(screen.queryByTestId("create-bucket")).toBeNull();
  });

  it("shows a spinner while testing and the call's failure as an error", () => {
    const { rerender } = renderUi(
      <ConnectionVerdict test={{ pending: true, report: null, error: null }} />,
    );
    expect(screen.getByTestId("connection-pending")).toBeTruthy();
    rerender(<ConnectionVerdict test={{ pending: false, report: null, error: "backend gone" }} />);
    const panel = screen.getByTestId("connection-verdict");
    expect(panel.dataset.verdict).toBe("error");
    expect(panel.textContent).toContain("backend gone");
  });
});
