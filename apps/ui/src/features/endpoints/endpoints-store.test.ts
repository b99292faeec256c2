import { AppError, type ConnectionReport } from "@taillab/api";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeTailLab } from "../../shared/test-support/fake-taillab.ts";
import { OK_REPORT, savedEndpoint } from "../../shared/test-support/sample-data.ts";
import { useEndpointForm } from "./endpoint-form-store.ts";
import { useEndpoints } from "./endpoints-store.ts";

const initialList = useEndpoints.getState();
const initialForm = useEndpointForm.getState();

beforeEach(() => {
  useEndpoints.setState(initialList, true);
  useEndpointForm.setState(initialForm, true);
});

describe("endpoints store", () => {
  it("loads the saved endpoints", async () => {
    installFakeTailLab({ listEndpoints: vi.fn(async () => [savedEndpoint()]) });
    await useEndpoints.getState().load();
    expect(useEndpoints.getState()).toMatchObject({ loaded: true, error: null });
    expect(useEndpoints.getState().endpoints.map((endpoint) => endpoint.name)).toEqual(["MinIO"]);
  });

  it("says why loading failed", async () => {
    installFakeTailLab({
      listEndpoints: vi.fn(async () => {
        throw new AppError({ message: "store unreadable" });
      }),
    });
    await useEndpoints.getState().load();
    expect(useEndpoints.getState().error).toBe("store unreadable");
  });

  it("tests a saved endpoint: pending, then its report", async () => {
    let answer: (report: ConnectionReport) => void = () => undefined;
    const fake = installFakeTailLab({
      testConnection: vi.fn(() => new Promise<ConnectionReport>((resolve) => (answer = resolve))),
    });
    const done = useEndpoints.getState().test("e1");
    expect(useEndpoints.getState().tests.e1?.pending).toBe(true);
    answer(OK_REPORT);
    await done;
    expect(fake.testConnection).toHaveBeenCalledWith({ endpointId: "e1" });
    expect(useEndpoints.getState().tests.e1).toEqual({
      pending: false,
      report: OK_REPORT,
      error: null,
    });
  });

  it("creates a saved endpoint's bucket and shows the verdict that follows", async () => {
    const fake = installFakeTailLab({ createBucket: vi.fn(async () => OK_REPORT) });
    await useEndpoints.getState().createBucket("e1");
    expect(fake.createBucket).toHaveBeenCalledWith({ endpointId: "e1" });
    expect(useEndpoints.getState().tests.e1?.report).toEqual(OK_REPORT);
  });

  it("removes an endpoint and its verdict", async () => {
    const fake = installFakeTailLab();
    useEndpoints.setState({
      endpoints: [savedEndpoint()],
      tests: { e1: { pending: false, report: OK_REPORT, error: null } },
    });
    await useEndpoints.getState().remove("e1");
    expect(fake.removeEndpoint).toHaveBeenCalledWith({ endpointId: "e1" });
    expect(useEndpoints.getState().endpoints).toEqual([]);
    expect(useEndpoints.getState().tests).toEqual({});
  });
});

describe("endpoint form store", () => {
  it("adds an endpoint and closes", async () => {
    const fake = installFakeTailLab({
      addEndpoint: vi.fn(async () => savedEndpoint({ id: "new" })),
    });
    useEndpointForm.getState().startAdd("minio");
    useEndpointForm.getState().setField("secretAccessKey", "minio123");
    expect(await useEndpointForm.getState().save()).toBe(true);
    expect(fake.addEndpoint).toHaveBeenCalledWith(
      expect.objectContaining({ kind: "minio", secretAccessKey: "minio123" }),
    );
    expect(useEndpointForm.getState().open).toBe(false);
    expect(useEndpoints.getState().endpoints.map((endpoint) => endpoint.id)).toEqual(["new"]);
  });

  it("updates an edited endpoint in place, keeping the saved secret", async () => {
    const fake = installFakeTailLab({
      updateEndpoint: vi.fn(async () => savedEndpoint({ name: "MinIO 2" })),
    });
    useEndpoints.setState({
      endpoints: [savedEndpoint(), savedEndpoint({ id: "e2", name: "Other" })],
    });
    useEndpointForm.getState().startEdit(savedEndpoint());
    useEndpointForm.getState().setField("name", "MinIO 2");
    await useEndpointForm.getState().save();
    const call = vi.mocked(fake.updateEndpoint).mock.calls[0]?.[0];
    expect(call?.endpointId).toBe("e1");
    expect(call?.draft).not.toHaveProperty("secretAccessKey");
    expect(useEndpoints.getState().endpoints.map((endpoint) => endpoint.name)).toEqual([
      "MinIO 2",
      "Other",
    ]);
  });

  it("keeps every typed value and marks the fields a failed save names", async () => {
    installFakeTailLab({
      addEndpoint: vi.fn(async () => {
        throw new AppError({
          message: "url: expected an http:// URL\nbucket: expected 3-63 lowercase letters",
          fields: [
            { field: "url", message: "expected an http:// URL" },
            { field: "bucket", message: "expected 3-63 lowercase letters" },
          ],
        });
      }),
    });
    const form = useEndpointForm.getState();
    form.startAdd("minio");
    form.setField("url", "localhost:9000");
    form.setField("bucket", "Bad_Bucket");
    expect(await useEndpointForm.getState().save()).toBe(false);
    const state = useEndpointForm.getState();
    expect(state.open).toBe(true);
    expect(state.values).toMatchObject({ url: "localhost:9000", bucket: "Bad_Bucket" });
    expect(state.fieldErrors).toEqual({
      url: "expected an http:// URL",
      bucket: "expected 3-63 lowercase letters",
    });
    expect(state).toMatchObject({ formError: null, fixFields: true });
    // Typing in a marked field clears its mark; the other stays.
    state.setField("url", "http://localhost:9000");
    expect(useEndpointForm.getState().fieldErrors).toEqual({
      bucket: "expected 3-63 lowercase letters",
    });
  });

  it("creates the form's bucket from the draft, then shows the new verdict", async () => {
    const fake = installFakeTailLab({ createBucket: vi.fn(async () => OK_REPORT) });
    useEndpointForm.getState().startAdd("minio");
    await useEndpointForm.getState().createBucket();
    expect(fake.createBucket).toHaveBeenCalledWith({
      draft: expect.objectContaining({ bucket: "loadgen" }),
    });
    expect(useEndpointForm.getState().test.report).toEqual(OK_REPORT);
  });

  it("tests the draft on the form, with the endpoint id when editing", async () => {
    const fake = installFakeTailLab({ testConnection: vi.fn(async () => OK_REPORT) });
    useEndpointForm.getState().startEdit(savedEndpoint());
    await useEndpointForm.getState().testConnection();
    expect(fake.testConnection).toHaveBeenCalledWith({
      endpointId: "e1",
      draft: expect.objectContaining({ url: "http://127.0.0.1:9000" }),
    });
    expect(useEndpointForm.getState().test.report).toEqual(OK_REPORT);
  });

  it("marks the fields when the form cannot be tested as filled in", async () => {
    installFakeTailLab({
      testConnection: vi.fn(async () => {
        throw new AppError({
          message: "draft.secretAccessKey: is required",
          fields: [{ field: "draft.secretAccessKey", message: "is required" }],
        });
      }),
    });
    useEndpointForm.getState().startAdd("minio");
    await useEndpointForm.getState().testConnection();
    const state = useEndpointForm.getState();
    expect(state.fieldErrors).toEqual({ secretAccessKey: "is required" });
    expect(state).toMatchObject({
      fixFields: true,
      test: { pending: false, report: null, error: null },
    });
  });

  it("shows a test call's failure in the verdict panel when no field is at fault", async () => {
    installFakeTailLab({
      testConnection: vi.fn(async () => {
        throw new AppError({ message: "the backend is restarting" });
      }),
    });
    useEndpointForm.getState().startAdd("minio");
    await useEndpointForm.getState().testConnection();
    expect(useEndpointForm.getState().test.error).toBe("the backend is restarting");
    expect(useEndpointForm.getState().formError).toBeNull();
  });
});
