import type { EndpointDraftInput } from "@taillab/api";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkExperiment } from "./experiment-spec.ts";
import { failureOf, startAppClient, type AppClient } from "./test-support/app-client.ts";

const SECRET = "wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY";

const minio = (overrides: Partial<EndpointDraftInput> = {}): EndpointDraftInput => ({
  name: "Lab MinIO",
  kind: "minio",
  url: "http://127.0.0.1:9000/",
  credentials: { kind: "stored", accessKeyId: "AKIDLAB" },
  secretAccessKey: SECRET,
  ...overrides,
});

/** Every file under the data folder, as text. */
async function dataFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  return Promise.all(names.map((name) => readFile(join(dir, name), "utf8").catch(() => "")));
}

let app: AppClient;
beforeEach(async () => {
  app = await startAppClient();
});
afterEach(async () => {
  await app.close();
});

describe("endpoints", () => {
  it("seeds the embedded testbed on first start, and keeps it in endpoints.json", async () => {
    const [testbed, ...others] = await app.api.listEndpoints();
    expect(others).toEqual([]);
    expect(testbed).toMatchObject({
      id: "testbed",
      name: "Embedded testbed",
      kind: "testbed",
      testbed: { replicas: 2, profile: "steady" },
      hasSecret: false,
    });
    const file = JSON.parse(await readFile(join(app.dataDir, "endpoints.json"), "utf8"));
    expect(file).toMatchObject({ schemaVersion: 1, endpoints: [{ id: "testbed" }] });
  });

  it("adds, updates and removes endpoints, persisted across restarts", async () => {
    const added = await app.api.addEndpoint(minio());
    expect(added).toMatchObject({
      name: "Lab MinIO",
      url: "http://127.0.0.1:9000",
      region: "us-east-1",
      addressing: "path",
      bucket: "loadgen",
      hasSecret: true,
    });
    const updated = await app.api.updateEndpoint({
      endpointId: added.id,
      draft: minio({ name: "MinIO (renamed)", bucket: "bench", secretAccessKey: undefined }),
    });
    expect(updated).toMatchObject({ id: added.id, name: "MinIO (renamed)", bucket: "bench" });
    // The secret was omitted: the saved one is kept.
    expect(updated.hasSecret).toBe(true);
    expect(updated.createdAt).toBe(added.createdAt);

    const reopened = await startAppClient({ dataDir: app.dataDir });
    try {
      expect((await reopened.api.listEndpoints()).map((endpoint) => endpoint.name)).toEqual([
        "Embedded testbed",
        "MinIO (renamed)",
      ]);
      await reopened.api.removeEndpoint({ endpointId: added.id });
      expect(await reopened.api.listEndpoints()).toHaveLength(1);
      const secrets = JSON.parse(await readFile(join(app.dataDir, "secrets.json"), "utf8"));
      expect(secrets.secrets).toEqual({});
    } finally {
      await reopened.close();
    }
  });

  it("never answers with the secret, and never writes it in plaintext", async () => {
    const added = await app.api.addEndpoint(minio());
    await app.api.updateEndpoint({ endpointId: added.id, draft: minio({ name: "Again" }) });
    const answers = JSON.stringify([added, await app.api.listEndpoints()]);
    expect(answers).not.toContain(SECRET);
    const files = await dataFiles(app.dataDir);
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const text of files) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(Buffer.from(SECRET).toString("base64"));
    }
    const secrets = JSON.parse(await readFile(join(app.dataDir, "secrets.json"), "utf8"));
    expect(Object.keys(secrets.secrets)).toEqual([added.id]);
  });

  it("drops the secret when the credentials stop being stored ones", async () => {
    const added = await app.api.addEndpoint(minio());
    const updated = await app.api.updateEndpoint({
      endpointId: added.id,
      draft: minio({
        credentials: {
          kind: "env",
          accessKeyIdVar: "KEY_ACCESS_KEY_ID",
          secretAccessKeyVar: "KEY_SECRET_ACCESS_KEY",
        },
        secretAccessKey: undefined,
      }),
    });
    expect(updated.hasSecret).toBe(false);
    const secrets = JSON.parse(await readFile(join(app.dataDir, "secrets.json"), "utf8"));
    expect(secrets.secrets).toEqual({});
  });

  it("keeps an https endpoint's certificate check, and runs on it with the same", async () => {
    const trusted = await app.api.addEndpoint(
      minio({ name: "lab https", url: "https://lab.example:9000", caFile: "/etc/lab-ca.pem" }),
    );
    const unchecked = await app.api.addEndpoint(
      minio({ name: "lab https 2", url: "https://lab.example:9001", insecure: true }),
    );
    expect(trusted).toMatchObject({ caFile: "/etc/lab-ca.pem" });
    expect(trusted.insecure).toBeUndefined();
    expect(unchecked).toMatchObject({ insecure: true });
    const checked = checkExperiment(
      {
        name: "x",
        description: "",
        endpointId: trusted.id,
        spec: { clients: 1, samples: 1, objectSize: 1 },
      },
      (id) => (id === trusted.id ? { ...trusted } : undefined),
    );
    expect(checked.ok && checked.specs[0]?.endpoints?.[0]).toMatchObject({
      url: "https://lab.example:9000",
      caFile: "/etc/lab-ca.pem",
      insecure: false,
    });
  });

  it("names each bad field of a draft", async () => {
    const bad = await failureOf(
      app.api.addEndpoint(
        minio({
          url: "http://127.0.0.1:9000/bucket",
          bucket: "Bad_Bucket",
          secretAccessKey: undefined,
        }),
      ),
    );
    expect(bad.fields.map((problem) => problem.field)).toEqual([
      "url",
      "bucket",
      "secretAccessKey",
    ]);
    expect(bad.fields[0]?.message).toMatch(/no path/);
    expect(bad.fields[1]?.message).toMatch(/lowercase/);

    const noUrl = await failureOf(app.api.addEndpoint(minio({ url: undefined })));
    expect(noUrl.fields).toEqual([
      {
        field: "url",
        message: expect.stringMatching(/is required/),
        code: "urlRequired",
        params: {},
      },
    ]);

    const ftp = await failureOf(app.api.addEndpoint(minio({ url: "ftp://example.com" })));
    expect(ftp.fields[0]).toMatchObject({ field: "url", message: expect.stringMatching(/http/) });

    // S3's SDKs fall back to path addressing for an IP: the endpoint would not be what it says.
    const virtualIp = await failureOf(
      app.api.addEndpoint(minio({ url: "http://127.0.0.1:9000", addressing: "virtual-host" })),
    );
    expect(virtualIp.fields).toMatchObject([
      {
        field: "addressing",
        code: "virtualHostOnIp",
        params: { host: "127.0.0.1" },
        message: expect.stringMatching(/needs a host name, and 127\.0\.0\.1 is an IP address/),
      },
    ]);

    // The contract's schema checks first: an empty name never reaches the backend.
    const unnamed = await failureOf(app.api.addEndpoint(minio({ name: " " })));
    expect(unnamed.fields).toEqual([
      { field: "name", message: "is required", code: "required", params: {} },
    ]);

    await app.api.addEndpoint(minio());
    const twice = await failureOf(app.api.addEndpoint(minio({ name: "lab minio" })));
    expect(twice.fields).toMatchObject([
      { field: "name", message: expect.stringMatching(/exists/), code: "endpointNameTaken" },
    ]);
  });

  it("names fields of an update by their path in the call, and an unknown id", async () => {
    const added = await app.api.addEndpoint(minio());
    const bad = await failureOf(
      app.api.updateEndpoint({ endpointId: added.id, draft: minio({ url: "not a url" }) }),
    );
    expect(bad.fields.map((problem) => problem.field)).toEqual(["draft.url"]);
    const unknown = await failureOf(
      app.api.updateEndpoint({ endpointId: "ep-nope", draft: minio() }),
    );
    expect(unknown.fields).toEqual([
      {
        field: "endpointId",
        message: 'no saved endpoint with id "ep-nope"',
        code: "noSavedEndpoint",
        params: { id: "ep-nope" },
      },
    ]);
  });

  it("needs no URL for a testbed endpoint, and keeps the built-in one a testbed", async () => {
    const testbed = await app.api.addEndpoint({
      name: "Stalling testbed",
      kind: "testbed",
      url: "http://ignored:1",
      credentials: { kind: "anonymous" },
      testbed: { replicas: 3, profile: "stalls" },
    });
    expect(testbed.url).toBeUndefined();
    expect(testbed.testbed).toEqual({ replicas: 3, profile: "stalls", seed: 1 });

    const removal = await failureOf(app.api.removeEndpoint({ endpointId: "testbed" }));
    expect(removal.fields[0]?.field).toBe("endpointId");
    const change = await failureOf(
      app.api.updateEndpoint({ endpointId: "testbed", draft: minio({ name: "Embedded testbed" }) }),
    );
    expect(change.fields.map((problem) => problem.field)).toEqual(["draft.kind"]);
  });

  it("refuses a data file written by a newer TailLab instead of overwriting it", async () => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(
      join(app.dataDir, "endpoints.json"),
      JSON.stringify({ schemaVersion: 2, endpoints: [] }),
    );
    await expect(startAppClient({ dataDir: app.dataDir })).rejects.toThrow(
      /endpoints\.json was written by a newer TailLab \(schema 2/,
    );
  });
});
