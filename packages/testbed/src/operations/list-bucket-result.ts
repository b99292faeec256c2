/**
 * What ListObjects (version 1) and ListObjectsV2 share: reading a listing request's common
 * parameters and the ListBucketResult document both answer, each adding its own markers.
 */
import { listPage, type ListPage } from "../list-objects.ts";
import type { ObjectStore } from "../object-store.ts";
import { element, keyEncoder, s3Document } from "../s3-xml.ts";
import { bucketOf, parsePageSize, parseUrlEncoding } from "./request-parts.ts";
import type { OperationRequest } from "./testbed-operation.ts";

interface ListedObject {
  key: string;
  sizeBytes: number;
  etag: string;
  lastModified: Date;
}

/** The request fields a listing echoes back, already in the form the response should carry. */
export interface Listing {
  bucket: string;
  prefix: string;
  delimiter: string;
  maxKeys: number;
  /** Encodes keys and prefixes in the response, as `encoding-type=url` asks. */
  urlEncode: boolean;
  objects: readonly ListedObject[];
  page: ListPage;
}

/** The page of objects listed after the key `after`, with their metadata. */
export async function listing(
  request: OperationRequest,
  store: ObjectStore,
  after: string,
): Promise<Listing> {
  const bucket = bucketOf(request);
  const { query } = request.target;
  const prefix = query.get("prefix") ?? "";
  const delimiter = query.get("delimiter") ?? "";
  const maxKeys = parsePageSize(query, "max-keys");
  const urlEncode = parseUrlEncoding(query);
  const page = listPage(await store.listKeys(bucket), { prefix, delimiter, maxKeys, after });
  const metadata = await Promise.all(page.keys.map((key) => store.headObject(bucket, key)));
  const objects = page.keys.flatMap((key, i) => {
    const entry = metadata[i];
    // Deleted between listing the keys and reading their metadata.
    return entry === undefined ? [] : [{ key, ...entry }];
  });
  return { bucket, prefix, delimiter, maxKeys, urlEncode, objects, page };
}

/** The ListBucketResult of a listing; `markers` are the version's own fields (already XML). */
export function listBucketResultXml(input: Listing, markers: string): string {
  const encode = keyEncoder(input.urlEncode);
  const contents = input.objects.map(
    (object) =>
      `<Contents>${element("Key", encode(object.key))}` +
      `${element("LastModified", object.lastModified.toISOString())}${element("ETag", object.etag)}` +
      `${element("Size", object.sizeBytes)}<StorageClass>STANDARD</StorageClass></Contents>`,
  );
  const commonPrefixes = input.page.commonPrefixes.map(
    (prefix) => `<CommonPrefixes>${element("Prefix", encode(prefix))}</CommonPrefixes>`,
  );
  return s3Document(
    "ListBucketResult",
    `${element("Name", input.bucket)}${element("Prefix", encode(input.prefix))}` +
      (input.delimiter === "" ? "" : element("Delimiter", encode(input.delimiter))) +
      `${element("MaxKeys", input.maxKeys)}${element("IsTruncated", input.page.isTruncated)}` +
      (input.urlEncode ? "<EncodingType>url</EncodingType>" : "") +
      `${markers}${contents.join("")}${commonPrefixes.join("")}`,
  );
}
