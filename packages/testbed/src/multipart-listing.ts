/** One page of ListParts and of ListMultipartUploads, with their markers. Pure. */
import { compareUtf8 } from "./list-objects.ts";
import type { MultipartUpload, PartMetadata } from "./upload-index.ts";

export interface PartsPage<P extends PartMetadata> {
  parts: P[];
  isTruncated: boolean;
  /** The last part number of a truncated page: the next page's part-number-marker. */
  nextPartNumberMarker: number | undefined;
}

/** `parts` sorted by part number; the page holds those after `partNumberMarker`. */
export function partsPage<P extends PartMetadata>(
  parts: readonly P[],
  partNumberMarker: number,
  maxParts: number,
): PartsPage<P> {
  const after = parts.filter((part) => part.partNumber > partNumberMarker);
  const page = after.slice(0, maxParts);
  const isTruncated = after.length > page.length;
  return {
    parts: page,
    isTruncated,
    nextPartNumberMarker: isTruncated ? page.at(-1)?.partNumber : undefined,
  };
}

export interface UploadsQuery {
  prefix: string;
  /** Uploads of keys after this one; with `uploadIdMarker`, also later uploads of this key. */
  keyMarker: string;
  /** Only counts with `keyMarker`, as in S3. */
  uploadIdMarker: string;
  maxUploads: number;
}

export interface UploadsPage {
  uploads: MultipartUpload[];
  isTruncated: boolean;
  nextKeyMarker: string | undefined;
  nextUploadIdMarker: string | undefined;
}

/** `uploads` sorted by key (UTF-8 order), then upload id. */
export function uploadsPage(uploads: readonly MultipartUpload[], query: UploadsQuery): UploadsPage {
  const { prefix, keyMarker, uploadIdMarker, maxUploads } = query;
  const isAfterMarker = (upload: MultipartUpload): boolean => {
    if (keyMarker === "") return true;
    const order = compareUtf8(upload.key, keyMarker);
    return order > 0 || (order === 0 && uploadIdMarker !== "" && upload.uploadId > uploadIdMarker);
  };
  const matching = uploads.filter(
    (upload) => upload.key.startsWith(prefix) && isAfterMarker(upload),
  );
  const page = matching.slice(0, maxUploads);
  const isTruncated = matching.length > page.length;
  const last = isTruncated ? page.at(-1) : undefined;
  return {
    uploads: page,
    isTruncated,
    nextKeyMarker: last?.key,
    nextUploadIdMarker: last?.uploadId,
  };
}
