import { coded } from "@taillab/api";
import { act, fireEvent, screen, within } from "@testing-library/react";
import i18next from "i18next";
import { describe, expect, it, vi } from "vitest";
import { renderUi } from "../../shared/test-support/render.tsx";
import { BUCKET_REPORT, failedReport, OK_REPORT } from "../../shared/test-support/sample-data.ts";
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

  it("says the verdict and each check in Chinese on a Chinese screen", async () => {
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      renderUi(<ConnectionVerdict test={{ pending: false, report: BUCKET_REPORT, error: null }} />);
      const panel = screen.getByTestId("connection-verdict");
      const message = panel.querySelector(".verdict-message")?.textContent ?? "";
      expect(message).toBe(
        "http://127.0.0.1:9000：存储桶“loadgen”不存在（NoSuchBucket）——请创建它，或选择一个已有的存储桶",
      );
      const details = [...panel.querySelectorAll("li .muted")].map((item) => item.textContent);
      expect(details).toEqual([
        "服务器已应答（HTTP 404）",
        "访问密钥已被接受",
        "存储桶“loadgen”不存在（NoSuchBucket）——请创建它，或选择一个已有的存储桶",
        "未尝试",
      ]);
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("says a sentence whose code it does not know in the backend's English", () => {
    const report = {
      ...BUCKET_REPORT,
      message: "http://127.0.0.1:9000: the bucket is on holiday",
      code: "bucketOnHoliday",
      params: {},
    };
    renderUi(<ConnectionVerdict test={{ pending: false, report, error: null }} />);
    expect(screen.getByTestId("connection-verdict").textContent).toContain(
      "the bucket is on holiday",
    );
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
    const forbidden = failedReport("bucket", coded("bucketNotListable", { bucket: "loadgen" }));
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
