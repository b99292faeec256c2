import { describe, expect, it } from "vitest";
import { applyKind, applyRegion, newEndpointValues } from "./endpoint-presets.ts";

describe("endpoint presets", () => {
  it("fills each kind's usual address and signing", () => {
    expect(newEndpointValues("minio")).toMatchObject({
      url: "http://127.0.0.1:9000",
      addressing: "path",
      credentialSource: "stored",
    });
    expect(newEndpointValues("ceph-rgw").url).toBe("http://127.0.0.1:7480");
    expect(newEndpointValues("swift").url).toBe("http://127.0.0.1:8080");
    expect(newEndpointValues("s3mock")).toMatchObject({
      url: "http://127.0.0.1:9090",
      credentialSource: "anonymous",
    });
    expect(newEndpointValues("moto").url).toBe("http://127.0.0.1:5000");
    expect(newEndpointValues("aws")).toMatchObject({
      url: "https://s3.us-east-1.amazonaws.com",
      addressing: "virtual-host",
      credentialSource: "env",
    });
    expect(newEndpointValues("testbed")).toMatchObject({ replicas: "3", profile: "steady" });
  });

  it("replaces untouched defaults when the kind changes", () => {
    const values = applyKind(newEndpointValues("minio"), "ceph-rgw");
    expect(values).toMatchObject({
      kind: "ceph-rgw",
      name: "Ceph RGW",
      url: "http://127.0.0.1:7480",
    });
    // MinIO's default key is not Ceph's: an untouched default goes back to empty.
    expect(values.accessKeyId).toBe("");
  });

  it("keeps what the user typed when the kind changes", () => {
    const typed = {
      ...newEndpointValues("minio"),
      name: "lab server",
      url: "http://10.0.0.5:9000",
      bucket: "bench",
      secretAccessKey: "s3cret",
    };
    const values = applyKind(typed, "aws");
    expect(values).toMatchObject({
      kind: "aws",
      name: "lab server",
      url: "http://10.0.0.5:9000",
      bucket: "bench",
      secretAccessKey: "s3cret",
      addressing: "virtual-host",
      credentialSource: "env",
    });
  });

  it("moves an untouched AWS URL with the region, and leaves a typed one", () => {
    const aws = newEndpointValues("aws");
    expect(applyRegion(aws, "eu-west-1").url).toBe("https://s3.eu-west-1.amazonaws.com");
    const typed = { ...aws, url: "https://s3.example.com" };
    expect(applyRegion(typed, "eu-west-1").url).toBe("https://s3.example.com");
  });
});
