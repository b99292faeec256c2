import { describe, expect, it } from "vitest";
import { UploadIndex, type PartMetadata } from "./upload-index.ts";

const part = (partNumber: number, etag = `"${partNumber}"`): PartMetadata => ({
  partNumber,
  etag,
  sizeBytes: 10,
  lastModified: new Date(0),
});

const plan = { partNumbers: [1, 2], etag: '"x-2"', sizeBytes: 20 };

describe("UploadIndex", () => {
  it("knows an upload only by its bucket, key and id", () => {
    const index = new UploadIndex<PartMetadata>();
    const { uploadId } = index.create("b", "k", "x/y");
    expect(index.get("b", "k", uploadId)).toMatchObject({ bucket: "b", key: "k" });
    for (const [bucket, key, id] of [
      ["b", "other", uploadId],
      ["other", "k", uploadId],
      ["b", "k", "unknown"],
    ] as const) {
      expect(() => index.get(bucket, key, id)).toThrow(
        expect.objectContaining({ code: "NoSuchUpload" }),
      );
    }
  });

  it("replaces a part uploaded again and returns the one replaced", () => {
    const index = new UploadIndex<PartMetadata>();
    const { uploadId } = index.create("b", "k", "x/y");
    expect(index.setPart("b", "k", uploadId, part(2))).toBeUndefined();
    index.setPart("b", "k", uploadId, part(1));
    expect(index.setPart("b", "k", uploadId, part(2, '"again"'))).toEqual(part(2));
    expect(index.sortedParts("b", "k", uploadId)).toEqual([part(1), part(2, '"again"')]);
  });

  it("keeps an upload open when the completion check refuses it, and ends it otherwise", () => {
    const index = new UploadIndex<PartMetadata>();
    const { uploadId } = index.create("b", "k", "x/y");
    index.setPart("b", "k", uploadId, part(1));
    index.setPart("b", "k", uploadId, part(2));
    index.setPart("b", "k", uploadId, part(3));
    expect(() =>
      index.complete("b", "k", uploadId, () => {
        throw new Error("refused");
      }),
    ).toThrow("refused");
    const completed = index.complete("b", "k", uploadId, () => plan);
    expect(completed.parts).toEqual([part(1), part(2)]);
    expect(completed.upload).toEqual(expect.objectContaining({ uploadId, contentType: "x/y" }));
    expect(() => index.complete("b", "k", uploadId, () => plan)).toThrow(
      expect.objectContaining({ code: "NoSuchUpload" }),
    );
  });

  it("lists a bucket's uploads by key, then in creation order, and drops them with the bucket", () => {
    const index = new UploadIndex<PartMetadata>();
    const first = index.create("b", "z", "x/y");
    const second = index.create("b", "a", "x/y");
    const third = index.create("b", "z", "x/y");
    // Past 16 and 256, where a counter that is not zero-padded would sort out of order.
    const many = Array.from({ length: 300 }, () => index.create("other", "m", "x/y").uploadId);
    expect(index.list("b").map((upload) => upload.uploadId)).toEqual([
      second.uploadId,
      first.uploadId,
      third.uploadId,
    ]);
    expect(index.list("other").map((upload) => upload.uploadId)).toEqual(many);
    index.removeBucket("b");
    expect(index.list("b")).toEqual([]);
    expect(index.list("other")).toHaveLength(300);
  });
});
