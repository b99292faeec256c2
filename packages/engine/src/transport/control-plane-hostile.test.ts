import { startHostileListingServer, type ListingFault } from "@taillab/test-support";
import { startTestbed, type Testbed } from "@taillab/testbed";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlPlane, type ControlPlane } from "./control-plane.ts";
import { EndpointError } from "./endpoint-error.ts";
import { createTransport } from "./object-transport.ts";

/**
 * Listings from a server that does not list as asked: whatever it answers, only keys and uploads
 * under the prefix come back, and a listing that never ends is given up with a reason.
 */

const RUN_KEYS = ["taillab/r1/0", "taillab/r1/1"];
const FOREIGN_KEYS = ["precious/data1", "otherteam/backup.tar", "taillab/r1", "taillab/r1x/0"];

let testbed: Testbed;
beforeAll(async () => {
  testbed = await startTestbed({ buckets: ["loadgen"] });
  const transport = createTransport("fast", targetAt(testbed.url), () => 0);
  for (const key of [...RUN_KEYS, ...FOREIGN_KEYS]) {
    expect((await transport.putObject(key, Buffer.from(key))).error).toBeNull();
  }
  for (const key of ["taillab/r1/2", "otherteam/upload", "taillab/r1x/1"]) {
    expect((await transport.createMultipartUpload(key)).uploadId).not.toBeNull();
  }
  await transport.close();
});
afterAll(async () => {
  await testbed?.close();
});

function targetAt(url: string) {
  return {
    url,
    region: "us-east-1",
    addressing: "path" as const,
    credentials: null,
    bucket: "loadgen",
    maxConnections: 1,
  };
}

async function withPlane(
  faults: ListingFault[],
  use: (plane: ControlPlane) => Promise<void>,
): Promise<number> {
  const hostile = await startHostileListingServer(testbed.url, faults);
  const plane = createControlPlane(targetAt(hostile.url));
  try {
    await use(plane);
    return hostile.listings();
  } finally {
    await plane.close();
    await hostile.close();
  }
}

describe("a control plane's listings from a hostile server", () => {
  it("a server that ignores the prefix: only keys and uploads under it are listed", async () => {
    await withPlane(["ignore-prefix"], async (plane) => {
      expect(await plane.listKeys("taillab/r1/")).toEqual(RUN_KEYS);
      expect((await plane.listUploads("taillab/r1/")).map((upload) => upload.key)).toEqual([
        "taillab/r1/2",
      ]);
    });
  });

  it.each<ListingFault>(["always-truncated", "always-truncated-new-token"])(
    "a listing that is always truncated (%s) is given up after its second page, as repeating",
    async (fault) => {
      const listings = await withPlane([fault], async (plane) => {
        const failure = await plane.listKeys("taillab/").catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(EndpointError);
        expect(failure).toMatchObject({ code: "EndlessListing", field: "endpoint" });
        expect((failure as Error).message).toMatch(
          /listing bucket "loadgen": the server's listing went back to a page it had already given, after 2 pages; stopped there \(EndlessListing\)$/,
        );
      });
      expect(listings).toBe(2);
    },
  );

  it("a listing that does not end within its page limit is given up, as too long", async () => {
    const hostile = await startHostileListingServer(testbed.url, ["always-truncated-new-token"]);
    // Empty pages, each with a token of its own: only the page limit ends it.
    const plane = createControlPlane(targetAt(hostile.url), { maxPages: 3, maxMs: 60_000 });
    try {
      const failure = await plane.listKeys("none/").catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: "EndlessListing" });
      expect((failure as Error).message).toMatch(/had not ended after 3 pages or 60 s/);
    } finally {
      await plane.close();
      await hostile.close();
    }
  });
});
