import { RunSummarySchema } from "@taillab/api";
import { createControlPlane, createTransport, type ControlPlane } from "@taillab/engine";
import { startHostileListingServer, type ListingFault } from "@taillab/test-support";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./test-support/run-cli.ts";

/**
 * `taillab cleanup` and a run's own cleanup against servers that do not list as asked: a server
 * that ignores `prefix` answers the whole bucket, one whose listing is always truncated never
 * ends it. Whatever they answer, nothing but the run's own keys is ever deleted, and a cleanup
 * ends and says what it could not check. The server behind is the embedded testbed (without
 * signature checks, as the hostile proxy rewrites requests); the bucket is looked at directly.
 */

/** Objects that are not the run's; `RUN` in a key is replaced by the run's id. */
const FOREIGN_KEYS = [
  "precious/data1",
  "precious/data2",
  "otherteam/backup.tar",
  "taillab/RUN",
  "taillab/RUNx/0",
  "taillab/RUN/not-a-run-key",
];

const target = (url: string) => ({
  url,
  region: "us-east-1",
  addressing: "path" as const,
  credentials: null,
  bucket: "loadgen",
  maxConnections: 1,
});

let testbed: Testbed;
/** The bucket as it really is, past any proxy. */
let bucket: ControlPlane;
beforeAll(async () => {
  testbed = await startTestbed({ buckets: ["loadgen"] });
  bucket = createControlPlane(target(testbed.url));
});
afterAll(async () => {
  await bucket?.close();
  await testbed?.close();
});

async function withHostile<T>(
  faults: ListingFault[],
  use: (url: string) => Promise<T>,
): Promise<T> {
  const hostile = await startHostileListingServer(testbed.url, faults);
  try {
    return await use(hostile.url);
  } finally {
    await hostile.close();
  }
}

const RUN = ["--clients", "2", "--size", "1KiB", "--json"];
/** Any keys: the testbed behind checks none. */
const KEYS = { AWS_ACCESS_KEY_ID: "HOSTILE", AWS_SECRET_ACCESS_KEY: "lab-secret" };
const taillab = (args: string[]) => runCli(args, KEYS);

/** A run that keeps its 20 objects, through `url`; its id. */
async function keptRun(url: string): Promise<string> {
  const result = await taillab([
    "run",
    "--endpoint",
    url,
    ...RUN,
    "--samples",
    "20",
    "--skip-cleanup",
  ]);
  expect(result.code).toBe(0);
  return RunSummarySchema.parse(JSON.parse(result.stdout)).runId;
}

async function putForeign(runId: string): Promise<string[]> {
  const keys = FOREIGN_KEYS.map((key) => key.replace("RUN", runId));
  const transport = createTransport("fast", target(testbed.url), () => 0);
  try {
    for (const key of keys) {
      expect((await transport.putObject(key, Buffer.from("not the run's"))).error).toBeNull();
    }
  } finally {
    await transport.close();
  }
  return keys;
}

async function removeAll(): Promise<void> {
  await bucket.deleteKeys(await bucket.listKeys(""));
  await bucket.abortUploads(await bucket.listUploads(""));
}

describe("taillab cleanup against a server that ignores the listing's prefix", () => {
  it("deletes the run's keys and no other, look-alikes included", async () => {
    await withHostile(["ignore-prefix"], async (url) => {
      const runId = await keptRun(url);
      const foreign = await putForeign(runId);
      const cleanup = await taillab(["cleanup", runId, "--json"]);
      expect(cleanup.code).toBe(0);
      expect(JSON.parse(cleanup.stdout)).toMatchObject({
        removed: { objects: 20 },
        objectsLeft: 0,
        unchecked: [],
      });
      expect((await bucket.listKeys("")).sort()).toEqual([...foreign].sort());
    });
    await removeAll();
  });

  it("a run's own cleanup aborts its open uploads and no other", async () => {
    const transport = createTransport("fast", target(testbed.url), () => 0);
    const foreignUpload = await transport.createMultipartUpload("otherteam/upload");
    await transport.close();
    await withHostile(["ignore-prefix"], async (url) => {
      const result = await taillab([
        "run",
        "--endpoint",
        url,
        ...RUN,
        "--ops",
        "multipart:1",
        "--prepare",
        "1",
        "--size",
        "6MiB",
        "--multipart-part",
        "5MiB",
        "--samples",
        "4",
      ]);
      expect(result.code).toBe(0);
    });
    expect(await bucket.listUploads("")).toEqual([
      { key: "otherteam/upload", uploadId: foreignUpload.uploadId },
    ]);
    await removeAll();
  });
});

describe("taillab cleanup against a listing that is always truncated", () => {
  it.each<ListingFault>(["always-truncated", "always-truncated-new-token"])(
    "%s: it ends, deletes the keys the run's records name, and says the rest could not be listed",
    async (fault) => {
      const foreign = await withHostile([fault], async (url) => {
        const runId = await keptRun(url);
        const foreign = await putForeign(runId);
        const cleanup = await taillab(["cleanup", runId, "--json"]);
        expect(cleanup.code).toBe(4);
        expect(JSON.parse(cleanup.stdout)).toMatchObject({
          removed: { objects: 20 },
          unchecked: ["objects"],
          errorsByCode: { EndlessListing: 1 },
        });
        expect(cleanup.stderr).toMatch(
          /^taillab cleanup: exit 4: left maybe objects it could not list \(EndlessListing 1\); run it again to retry\n$/,
        );
        return foreign;
      });
      expect((await bucket.listKeys("")).sort()).toEqual([...foreign].sort());
      await removeAll();
    },
  );
});

describe("taillab cleanup of a run whose bucket is gone", () => {
  it("says nothing of the run is left, and counts the run clean", async () => {
    const server = await startTestbed({ buckets: ["gone"] });
    try {
      const result = await taillab([
        "run",
        "--endpoint",
        server.url,
        "--bucket",
        "gone",
        ...RUN,
        "--samples",
        "10",
        "--skip-cleanup",
      ]);
      const { runId } = RunSummarySchema.parse(JSON.parse(result.stdout));
      const gone = createControlPlane({ ...target(server.url), bucket: "gone" });
      await gone.deleteKeys(await gone.listKeys(""));
      expect((await gone.deleteBuckets(["gone"])).removed).toBe(1);
      await gone.close();

      for (let attempt = 0; attempt < 2; attempt += 1) {
        const cleanup = await taillab(["cleanup", runId]);
        expect(cleanup).toMatchObject({
          code: 0,
          stdout: `run ${runId}: bucket gone no longer exists, so nothing of the run is left in it\n`,
          stderr: "",
        });
      }
      expect((await taillab(["runs", "show", runId])).stdout).not.toContain("left on the server");
    } finally {
      await server.close();
    }
  });
});

describe("what a run counts as left", () => {
  it("only keys whose PUT may have reached the server: those it refused are not", async () => {
    let puts = 0;
    const server = await startTestbed({
      buckets: ["loadgen"],
      // Every other PUT refused; no removal ever succeeds, so whatever was written stays.
      interceptor: ({ operation }) => {
        const refused = { status: 503, code: "SlowDown", message: "refused" };
        if (operation === "PutObject") return (puts += 1) % 2 === 0 ? { fault: refused } : {};
        if (operation === "DeleteObject" || operation === "DeleteObjects")
          return { fault: refused };
        return {};
      },
    });
    try {
      const result = await taillab(["run", "--endpoint", server.url, ...RUN, "--samples", "20"]);
      expect(result.code).toBe(4);
      const { runId } = RunSummarySchema.parse(JSON.parse(result.stdout));
      const written = createControlPlane(target(server.url));
      const keys = await written.listKeys(`taillab/${runId}/`);
      await written.close();
      expect(keys).toHaveLength(10);
      expect(result.stderr.trimEnd().split("\n").at(-1)).toMatch(
        new RegExp(`^taillab run: exit 4: the cleanup left 10 objects under taillab/${runId}/ `),
      );
    } finally {
      await server.close();
    }
  });
});

describe("a run whose bucket went away during it", () => {
  it("exit 1 for the requests that failed, and nothing said left: a missing bucket holds nothing of the run", async () => {
    let gone = false;
    const server = await startTestbed({
      buckets: ["loadgen"],
      // Once the PUTs are in, the bucket is gone for every request.
      interceptor: ({ operation }) => {
        if (operation === "GetObject") gone = true;
        const missing = { status: 404, code: "NoSuchBucket", message: "gone" };
        return gone ? { fault: missing } : {};
      },
    });
    try {
      const result = await taillab(["run", "--endpoint", server.url, ...RUN, "--samples", "10"]);
      const { runId } = RunSummarySchema.parse(JSON.parse(result.stdout));
      expect(result.code).toBe(1);
      expect(result.stderr.trimEnd().split("\n").at(-1)).toMatch(
        /^taillab run: exit 1: 20 of 30 requests failed \(NoSuchBucket 20\); bucket loadgen no longer exists, so nothing of the run is left in it$/,
      );
      expect((await taillab(["runs", "show", runId])).stdout).not.toContain("left on the server");
    } finally {
      await server.close();
    }
  });
});
