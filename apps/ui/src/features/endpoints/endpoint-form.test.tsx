import { AppError, BUILTIN_PROFILES, coded } from "@taillab/api";
import { act, fireEvent, screen } from "@testing-library/react";
import i18next from "i18next";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { renderUi } from "../../shared/test-support/render.tsx";
import { useAppInfo } from "../../app/app-info-store.ts";
import {
  failedReport,
  OK_REPORT,
  savedEndpoint,
  testbedEndpoint,
} from "../../shared/test-support/sample-data.ts";
import { useEndpointForm } from "./endpoint-form-store.ts";
import { useEndpoints } from "./endpoints-store.ts";
import { EndpointsView } from "./endpoints-view.tsx";

const initialList = useEndpoints.getState();
const initialForm = useEndpointForm.getState();
const initialInfo = useAppInfo.getState();

beforeEach(() => {
  useEndpoints.setState(initialList, true);
  useEndpointForm.setState(initialForm, true);
  useAppInfo.setState(initialInfo, true);
});

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const type = (testId: string, value: string) =>
  fireEvent.change(input(testId), { target: { value } });

describe("endpoints screen", () => {
  it("offers the testbed when there are no endpoints", async () => {
    installFakeTailLab();
    renderUi(<EndpointsView />);
    expect(await screen.findByTestId("endpoints-empty")).toBeTruthy();
  });

  it("lists saved endpoints with their address and credentials", async () => {
    installFakeTailLab({
      listEndpoints: vi.fn(async () => [
        savedEndpoint(),
        testbedEndpoint(),
        testbedEndpoint({
          id: "tb2",
          name: "Custom",
          testbed: { replicas: 1, profile: BUILTIN_PROFILES.steady, seed: 1 },
        }),
      ]),
    });
    renderUi(<EndpointsView />);
    const rows = await screen.findAllByTestId("endpoint-row");
    expect(rows.map((row) => row.dataset.name)).toEqual(["MinIO", "Testbed", "Custom"]);
    expect(rows[0]?.textContent).toContain("http://127.0.0.1:9000");
    expect(rows[0]?.textContent).toContain("key minioadmin · secret saved");
    expect(rows[1]?.textContent).toContain("embedded testbed · 3 replicas · stalls");
    expect(rows[2]?.textContent).toContain("embedded testbed · 1 replica · custom profile");
  });

  it("fills presets, keeps typed values on a failed save and shows each field's error", async () => {
    installFakeTailLab({
      addEndpoint: vi.fn(async () => {
        throw new AppError({
          message: "bucket: expected 3-63 lowercase letters",
          fields: [{ field: "bucket", message: "expected 3-63 lowercase letters" }],
        });
      }),
    });
    renderUi(<EndpointsView />);
    fireEvent.click(screen.getByTestId("endpoint-add"));
    expect(screen.getByTestId("endpoint-form")).toBeTruthy();
    expect(input("endpoint-url").value).toBe("http://127.0.0.1:9000");

    type("endpoint-name", "Lab MinIO");
    type("endpoint-bucket", "Bad_Bucket");
    type("endpoint-secret", "minio123");
    fireEvent.change(screen.getByTestId("endpoint-kind"), { target: { value: "ceph-rgw" } });
    expect(input("endpoint-url").value).toBe("http://127.0.0.1:7480");
    expect(input("endpoint-name").value).toBe("Lab MinIO");

    await act(async () => fireEvent.click(screen.getByTestId("endpoint-save")));
    expect(screen.getByText("expected 3-63 lowercase letters")).toBeTruthy();
    expect(input("endpoint-bucket").closest(".field")?.getAttribute("data-invalid")).toBe("true");
    expect(input("endpoint-name").value).toBe("Lab MinIO");
    expect(input("endpoint-bucket").value).toBe("Bad_Bucket");
    expect(input("endpoint-secret").value).toBe("minio123");
  });

  it("tests the connection from the form before saving", async () => {
    const fake = installFakeTailLab({ testConnection: vi.fn(async () => OK_REPORT) });
    renderUi(<EndpointsView />);
    fireEvent.click(screen.getByTestId("endpoint-add"));
    await act(async () => fireEvent.click(screen.getByTestId("endpoint-test")));
    expect(fake.testConnection).toHaveBeenCalledWith({
      draft: expect.objectContaining({ kind: "minio" }),
    });
    expect(screen.getByTestId("connection-verdict").dataset.verdict).toBe("ok");
  });

  it("tests an https lab server trusting its CA file, asked for only when chosen", async () => {
    const fake = installFakeTailLab({ testConnection: vi.fn(async () => OK_REPORT) });
    renderUi(<EndpointsView />);
    fireEvent.click(screen.getByTestId("endpoint-add"));
    type("endpoint-url", "https://lab:9443");
    expect(screen.queryByTestId("endpoint-ca-file")).toBeNull();
    fireEvent.change(screen.getByTestId("endpoint-certificate-check"), {
      target: { value: "ca-file" },
    });
    type("endpoint-ca-file", "/etc/lab-ca.pem");
    await act(async () => fireEvent.click(screen.getByTestId("endpoint-test")));
    expect(fake.testConnection).toHaveBeenCalledWith({
      draft: expect.objectContaining({ url: "https://lab:9443", caFile: "/etc/lab-ca.pem" }),
    });
  });

  it("marks the secret when the server refused it, until it is typed again", async () => {
    installFakeTailLab({
      testConnection: vi.fn(async () =>
        failedReport(
          "credentials",
          coded("secretRejected", { code: "SignatureDoesNotMatch" }),
          "credentials",
        ),
      ),
    });
    renderUi(<EndpointsView />);
    fireEvent.click(screen.getByTestId("endpoint-add"));
    type("endpoint-secret", "wrong");
    await act(async () => fireEvent.click(screen.getByTestId("endpoint-test")));
    const field = (testId: string) => input(testId).closest(".field");
    expect(field("endpoint-secret")?.getAttribute("data-invalid")).toBe("true");
    expect(field("endpoint-secret")?.textContent).toContain("check the secret access key");
    expect(field("endpoint-access-key")?.getAttribute("data-invalid")).toBeNull();
    type("endpoint-secret", "right");
    expect(field("endpoint-secret")?.getAttribute("data-invalid")).toBeNull();
  });

  it("marks both keys for a refusal that does not say which", async () => {
    installFakeTailLab({
      testConnection: vi.fn(async () =>
        failedReport(
          "credentials",
          coded("securityRefused", { code: "InvalidSecurity" }),
          "credentials",
        ),
      ),
    });
    renderUi(<EndpointsView />);
    fireEvent.click(screen.getByTestId("endpoint-add"));
    await act(async () => fireEvent.click(screen.getByTestId("endpoint-test")));
    for (const testId of ["endpoint-access-key", "endpoint-secret"]) {
      expect(input(testId).closest(".field")?.getAttribute("data-invalid")).toBe("true");
    }
  });

  it.each([
    ["web", "Access key, secret encrypted in the data folder", "Encrypted in the data folder"],
    ["electron", "Access key, secret in the OS keychain", "Encrypted with the OS keychain"],
  ] as const)("says where the %s host keeps secrets", async (host, option, hint) => {
    installFakeTailLab({
      appInfo: vi.fn(async () => ({ version: "0.0.0", host, resultsDir: "", dataDir: "" })),
    });
    renderUi(<EndpointsView />);
    await act(async () => fireEvent.click(screen.getByTestId("endpoint-add")));
    expect(screen.getByTestId("endpoint-credentials").textContent).toContain(option);
    expect(input("endpoint-secret").closest(".field")?.textContent).toContain(hint);
  });

  it("names the seeded embedded testbed in the UI's language, and a renamed one as typed", async () => {
    installFakeTailLab({
      listEndpoints: vi.fn(async () => [
        savedEndpoint({ id: "testbed", name: "Embedded testbed", kind: "testbed" }),
        savedEndpoint({ id: "tb2", name: "Embedded testbed", kind: "testbed" }),
      ]),
    });
    await act(() => i18next.changeLanguage("zh-CN"));
    try {
      renderUi(<EndpointsView />);
      const rows = await screen.findAllByTestId("endpoint-row");
      expect(rows.map((row) => row.querySelector("h3")?.textContent)).toEqual([
        "内置测试床",
        "Embedded testbed",
      ]);
    } finally {
      await act(() => i18next.changeLanguage("en"));
    }
  });

  it("says an edit keeps the saved secret", async () => {
    installFakeTailLab({ listEndpoints: vi.fn(async () => [savedEndpoint()]) });
    renderUi(<EndpointsView />);
    fireEvent.click(await screen.findByTestId("endpoint-row-edit"));
    expect(input("endpoint-secret").value).toBe("");
    expect(screen.getByText("Leave empty to keep the saved secret.")).toBeTruthy();
  });

  it("removes an endpoint only after confirmation", async () => {
    const fake = installFakeTailLab({ listEndpoints: vi.fn(async () => [savedEndpoint()]) });
    renderUi(<EndpointsView />);
    fireEvent.click(await screen.findByTestId("endpoint-row-remove"));
    expect(fake.removeEndpoint).not.toHaveBeenCalled();
    await act(async () => fireEvent.click(screen.getByTestId("endpoint-row-remove-confirm")));
    expect(fake.removeEndpoint).toHaveBeenCalledWith({ endpointId: "e1" });
    expect(screen.queryByTestId("endpoint-row")).toBeNull();
  });
});
