import { describe, expect, it } from "vitest";
import { partsPage, uploadsPage } from "./multipart-listing.ts";
import type { MultipartUpload, PartMetadata } from "./upload-index.ts";

const parts: PartMetadata[] = [1, 2, 5, 9].map((partNumber) => ({
  partNumber,
  etag: `"${partNumber}"`,
  sizeBytes: 1,
  lastModified: new Date(0),
}));

describe("partsPage", () => {
  it.each<[number, number, number[], boolean, number | undefined]>([
    [0, 1000, [1, 2, 5, 9], false, undefined],
    [0, 2, [1, 2], true, 2],
    [2, 2, [5, 9], false, undefined],
    [5, 1, [9], false, undefined],
    [9, 10, [], false, undefined],
    [0, 4, [1, 2, 5, 9], false, undefined],
  ])(
    "after part %i, %i at most: %j, truncated %s, next marker %s",
    (marker, maxParts, numbers, isTruncated, nextPartNumberMarker) => {
      const page = partsPage(parts, marker, maxParts);
      expect(page.parts.map((part) => part.partNumber)).toEqual(numbers);
      expect(page).toMatchObject({ isTruncated, nextPartNumberMarker });
    },
  );
});

describe("uploadsPage", () => {
  const upload = (key: string, uploadId: string): MultipartUpload => ({
    key,
    uploadId,
    bucket: "b",
    contentType: "x/y",
    initiated: new Date(0),
  });
  const uploads = [
    upload("a", "1"),
    upload("a", "2"),
    upload("b/x", "3"),
    upload("b/y", "4"),
    upload("c", "5"),
  ];
  const query = { prefix: "", keyMarker: "", uploadIdMarker: "", maxUploads: 1000 };

  it.each<[string, Partial<typeof query>, string[], boolean]>([
    ["every upload", {}, ["1", "2", "3", "4", "5"], false],
    ["under a prefix", { prefix: "b/" }, ["3", "4"], false],
    ["after a key", { keyMarker: "a" }, ["3", "4", "5"], false],
    [
      "after an upload of a key",
      { keyMarker: "a", uploadIdMarker: "1" },
      ["2", "3", "4", "5"],
      false,
    ],
    [
      "an upload-id-marker alone counts for nothing",
      { uploadIdMarker: "4" },
      ["1", "2", "3", "4", "5"],
      false,
    ],
    ["a page of two", { maxUploads: 2 }, ["1", "2"], true],
  ])("%s", (_name, overrides, ids, isTruncated) => {
    const page = uploadsPage(uploads, { ...query, ...overrides });
    expect(page.uploads.map((entry) => entry.uploadId)).toEqual(ids);
    expect(page.isTruncated).toBe(isTruncated);
  });

  it("pages through every upload with the next markers", () => {
    const seen: string[] = [];
    let markers = { keyMarker: "", uploadIdMarker: "" };
    for (;;) {
      const page = uploadsPage(uploads, { ...query, ...markers, maxUploads: 2 });
      seen.push(...page.uploads.map((entry) => entry.uploadId));
      if (!page.isTruncated) break;
      markers = {
        keyMarker: page.nextKeyMarker ?? "",
        uploadIdMarker: page.nextUploadIdMarker ?? "",
      };
    }
    expect(seen).toEqual(["1", "2", "3", "4", "5"]);
  });
});
