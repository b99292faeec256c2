import { describe, expect, it } from "vitest";
import { savedEndpoint } from "../../shared/test-support/sample-data.ts";
import { endpointToValues, mapEndpointErrors, valuesToDraft } from "./endpoint-draft.ts";
import { newEndpointValues } from "./endpoint-presets.ts";

/** A MinIO endpoint as saved with the preset's values. */
const saved = savedEndpoint();

describe("endpoint form ↔ draft", () => {
  it("sends stored keys with the secret only when one was typed", () => {
    const values = { ...newEndpointValues("minio"), secretAccessKey: "minio123" };
    // What the backend keeps beside the draft (id, secret flag, dates) is not sent.
    const draftOf = ({
      id: _id,
      hasSecret: _secret,
      createdAt: _c,
      updatedAt: _u,
      ...draft
    }: typeof saved) => draft;
    expect(valuesToDraft(values)).toEqual({ ...draftOf(saved), secretAccessKey: "minio123" });
    expect(valuesToDraft(newEndpointValues("minio"))).not.toHaveProperty("secretAccessKey");
  });

  it("sends environment variable names, or nothing for anonymous", () => {
    expect(valuesToDraft(newEndpointValues("aws")).credentials).toEqual({
      kind: "env",
      accessKeyIdVar: "AWS_ACCESS_KEY_ID",
      secretAccessKeyVar: "AWS_SECRET_ACCESS_KEY",
    });
    expect(valuesToDraft(newEndpointValues("moto")).credentials).toEqual({ kind: "anonymous" });
  });

  it("sends a testbed's set-up and no URL", () => {
    const draft = valuesToDraft({ ...newEndpointValues("testbed"), replicas: "2", seed: "7" });
    expect(draft).not.toHaveProperty("url");
    expect(draft.testbed).toEqual({ replicas: 2, profile: "steady", seed: 7 });
  });

  it("edits a saved endpoint with an empty secret box", () => {
    const values = endpointToValues(saved);
    expect(values).toMatchObject({ name: "MinIO", accessKeyId: "minioadmin", secretAccessKey: "" });
    expect(valuesToDraft(values)).not.toHaveProperty("secretAccessKey");
  });

  it("sends an https endpoint's certificate check: a CA file, or insecure, or nothing", () => {
    const https = { ...newEndpointValues("custom"), url: "https://lab:9443" };
    expect(valuesToDraft(https)).not.toHaveProperty("caFile");
    expect(valuesToDraft(https)).not.toHaveProperty("insecure");
    const trusting = { ...https, certificateCheck: "ca-file" as const, caFile: "/etc/lab-ca.pem" };
    expect(valuesToDraft(trusting)).toMatchObject({ caFile: "/etc/lab-ca.pem" });
    expect(valuesToDraft({ ...https, certificateCheck: "insecure" })).toMatchObject({
      insecure: true,
    });
    expect(endpointToValues({ ...saved, caFile: "/etc/lab-ca.pem" })).toMatchObject({
      certificateCheck: "ca-file",
      caFile: "/etc/lab-ca.pem",
    });
    expect(endpointToValues({ ...saved, insecure: true }).certificateCheck).toBe("insecure");
    expect(
      mapEndpointErrors([
        { field: "draft.caFile", message: "cannot read /x.pem (ENOENT)" },
        { field: "insecure", message: "is for https:// endpoints" },
      ]).fields,
    ).toEqual({
      caFile: "cannot read /x.pem (ENOENT)",
      certificateCheck: "is for https:// endpoints",
    });
  });

  it("puts the backend's errors at the form's fields", () => {
    const mapped = mapEndpointErrors([
      { field: "draft.bucket", message: "expected 3-63 lowercase letters" },
      { field: "url", message: "expected an http:// or https:// URL" },
      { field: "credentials.accessKeyId", message: "is required" },
      { field: "testbed.profile.queue.slots", message: "slots must be at least 1" },
      { field: "spec", message: "something else" },
    ]);
    expect(mapped.fields).toEqual({
      bucket: "expected 3-63 lowercase letters",
      url: "expected an http:// or https:// URL",
      accessKeyId: "is required",
      profile: "latency profile field “queue.slots”: slots must be at least 1",
    });
    expect(mapped.other).toEqual(["spec: something else"]);
  });
});
