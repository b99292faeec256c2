import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppClient, type AppClient } from "./test-support/app-client.ts";

let app: AppClient;
beforeAll(async () => {
  app = await startAppClient();
});
afterAll(async () => {
  await app?.close();
});

describe("the long-lived testbed", () => {
  it("starts with generated keys another endpoint can use, restarts, and stops", async () => {
    expect(await app.api.testbedStatus()).toEqual({
      running: false,
      setup: null,
      urls: [],
      bucket: null,
      accessKeyId: null,
      secretAccessKey: null,
    });
    const status = await app.api.startTestbed({ replicas: 2, profile: "fast" });
    expect(status).toMatchObject({
      running: true,
      setup: { replicas: 2, profile: "fast", seed: 1 },
      bucket: "loadgen",
    });
    expect(status.urls).toHaveLength(2);
    expect(await app.api.testbedStatus()).toEqual(status);

    const endpoint = await app.api.addEndpoint({
      name: "Running testbed",
      kind: "custom",
      url: status.urls[1],
      credentials: { kind: "stored", accessKeyId: status.accessKeyId ?? "" },
      secretAccessKey: status.secretAccessKey ?? "",
    });
    expect((await app.api.testConnection({ endpointId: endpoint.id })).verdict).toBe("ok");

    const restarted = await app.api.startTestbed({ replicas: 1, profile: "steady", seed: 9 });
    expect(restarted.setup).toEqual({ replicas: 1, profile: "steady", seed: 9 });
    expect(restarted.accessKeyId).not.toBe(status.accessKeyId);
    expect((await app.api.testConnection({ endpointId: endpoint.id })).verdict).not.toBe("ok");

    expect((await app.api.stopTestbed()).running).toBe(false);
    const [url] = restarted.urls;
    await expect(fetch(url ?? "")).rejects.toThrow();
  });

  it("lists the latency profiles with a sentence each", async () => {
    const profiles = await app.api.listLatencyProfiles();
    expect(profiles.map((profile) => profile.name)).toEqual([
      "fast",
      "steady",
      "stalls",
      "queue",
      "noisy-neighbour",
    ]);
    expect(profiles[2]?.summary).toMatch(/^Steady, and 1 % of requests stall for 1 s.*\.$/);
  });

  it("tells the host what it is running on", async () => {
    expect(await app.api.appInfo()).toEqual({
      version: "0.0.0-test",
      host: "web",
      dataDir: app.dataDir,
      resultsDir: app.resultsDir,
    });
  });
});
