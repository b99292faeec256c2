import { coded } from "@taillab/api";
import type { ControlPlane, OpenUpload, RemovalResult } from "@taillab/engine";
import { EndpointError } from "@taillab/engine";
import { describe, expect, it } from "vitest";
import { removeLeftovers } from "./run-leftovers.ts";

/** A control plane whose removals answer as scripted, recording what was asked. */
function scripted(answers: {
  deleteKeys?: RemovalResult;
  listUploads?: OpenUpload[] | EndpointError;
  listBuckets?: string[];
}) {
  const asked: string[] = [];
  const plane = {
    deleteKeys: async (keys: Iterable<string>) => {
      const count = [...keys].length;
      asked.push(`deleteKeys ${count}`);
      return answers.deleteKeys ?? { removed: count, failures: [], unanswered: false };
    },
    listKeys: async () => [],
    listUploads: async () => {
      asked.push("listUploads");
      const answer = answers.listUploads ?? [];
      if (answer instanceof EndpointError) throw answer;
      return answer;
    },
    abortUploads: async (uploads: readonly OpenUpload[]) => {
      asked.push(`abortUploads ${uploads.length}`);
      return { removed: uploads.length, failures: [], unanswered: false };
    },
    listBuckets: async (match: (name: string) => boolean) => {
      asked.push("listBuckets");
      return (answers.listBuckets ?? []).filter(match);
    },
    deleteBuckets: async (names: readonly string[]) => {
      asked.push(`deleteBuckets ${names.join(",")}`);
      return { removed: names.length, failures: [], unanswered: false };
    },
  } as Partial<ControlPlane> as ControlPlane;
  return { plane, asked };
}

const writtenKeys = ["taillab/r1/0", "taillab/r1/1", "taillab/r1/2"];
const plan = {
  objects: { count: writtenKeys.length, keys: () => writtenKeys },
  keyPrefix: "taillab/r1/",
  uploads: true,
  bucketsOfRun: "r1",
};

describe("removeLeftovers", () => {
  it("removes the run's keys, uploads and buckets, and only buckets named for the run", async () => {
    const { plane, asked } = scripted({
      listUploads: [{ key: "taillab/r1/9", uploadId: "u1" }],
      listBuckets: ["loadgen", "taillab-r1-w0-1", "taillab-r1-w0-x", "taillab-r10-w0-1"],
    });
    const cleanup = await removeLeftovers(plane, plan);
    expect(asked).toEqual([
      "deleteKeys 3",
      "listUploads",
      "abortUploads 1",
      "listBuckets",
      "deleteBuckets taillab-r1-w0-1",
    ]);
    expect(cleanup).toMatchObject({
      removed: { objects: 3, uploads: 1, buckets: 1 },
      objectsLeft: 0,
      uploadsLeft: 0,
      bucketsLeft: [],
      unchecked: [],
      errorsByCode: {},
    });
  });

  it("counts what it could not remove by code, and stops asking a server that stopped answering", async () => {
    const { plane, asked } = scripted({
      deleteKeys: {
        removed: 1,
        failures: [
          { name: "taillab/r1/1", code: "ClientTimeout" },
          { name: "taillab/r1/2", code: "ClientTimeout" },
        ],
        unanswered: true,
      },
    });
    const cleanup = await removeLeftovers(plane, plan);
    expect(asked).toEqual(["deleteKeys 3"]);
    expect(cleanup).toMatchObject({
      removed: { objects: 1, uploads: 0, buckets: 0 },
      objectsLeft: 2,
      unchecked: ["uploads", "buckets"],
      errorsByCode: { ClientTimeout: 2 },
    });
  });

  it("a listing refused leaves its kind unchecked, with the code, and goes on", async () => {
    const refused = new EndpointError(
      "credentials",
      "AccessDenied",
      "http://x",
      coded("keyRejected", { code: "AccessDenied" }),
    );
    const { plane, asked } = scripted({ listUploads: refused, listBuckets: ["taillab-r1-w1-2"] });
    const cleanup = await removeLeftovers(plane, plan);
    expect(asked.at(-1)).toBe("deleteBuckets taillab-r1-w1-2");
    expect(cleanup).toMatchObject({ unchecked: ["uploads"], errorsByCode: { AccessDenied: 1 } });
  });

  it("a listing without an answer leaves the kinds not reached yet unchecked", async () => {
    const silent = new EndpointError(
      "endpoint",
      "ECONNREFUSED",
      "http://x",
      coded("cannotConnect", { code: "ECONNREFUSED" }),
      {
        unanswered: true,
      },
    );
    const { plane, asked } = scripted({ listUploads: silent, listBuckets: ["taillab-r1-w1-2"] });
    const cleanup = await removeLeftovers(plane, plan);
    expect(asked).toEqual(["deleteKeys 3", "listUploads"]);
    expect(cleanup).toMatchObject({
      unchecked: ["uploads", "buckets"],
      errorsByCode: { ECONNREFUSED: 1 },
    });
  });
});
