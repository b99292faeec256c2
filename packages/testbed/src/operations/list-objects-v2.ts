import { S3Error } from "../s3-error.ts";
import type { RequestTarget } from "../s3-route.ts";
import { element, keyEncoder } from "../s3-xml.ts";
import { listBucketResultXml, listing, type Listing } from "./list-bucket-result.ts";
import { xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

/** Continuation tokens are opaque to clients; ours are the last entry of the page, base64url. */
function decodeContinuationToken(token: string): string {
  const after = Buffer.from(token, "base64url").toString("utf8");
  if (Buffer.from(after, "utf8").toString("base64url") !== token) {
    throw new S3Error("InvalidArgument", "The continuation token provided is incorrect");
  }
  return after;
}

function listObjectsV2Xml(
  input: Listing,
  tokens: {
    startAfter: string;
    continuationToken: string;
    nextContinuationToken: string | undefined;
  },
): string {
  const encode = keyEncoder(input.urlEncode);
  const keyCount = input.objects.length + input.page.commonPrefixes.length;
  return listBucketResultXml(
    input,
    element("KeyCount", keyCount) +
      (tokens.startAfter === "" ? "" : element("StartAfter", encode(tokens.startAfter))) +
      (tokens.continuationToken === ""
        ? ""
        : element("ContinuationToken", tokens.continuationToken)) +
      (tokens.nextContinuationToken === undefined
        ? ""
        : element("NextContinuationToken", tokens.nextContinuationToken)),
  );
}

/** ListObjects (version 1) names no list-type; version 2 is the only other. */
function refuseListTypeOtherThan2({ query }: RequestTarget): void {
  const listType = query.get("list-type");
  if (listType !== "2") {
    throw new S3Error("InvalidArgument", `list-type must be 2, not "${listType}"`);
  }
}

export const listObjectsV2Operation: TestbedOperation<"ListObjectsV2"> = {
  name: "ListObjectsV2",
  route: { names: "bucket", method: "GET", query: ["list-type"], refuse: refuseListTypeOtherThan2 },
  profiled: "no",
  async handle(request, { store }) {
    const { query } = request.target;
    const startAfter = query.get("start-after") ?? "";
    const continuationToken = query.get("continuation-token") ?? "";
    const after =
      continuationToken === "" ? startAfter : decodeContinuationToken(continuationToken);
    const input = await listing(request, store, after);
    const last = input.page.lastEntry;
    const nextContinuationToken =
      last === undefined ? undefined : Buffer.from(last, "utf8").toString("base64url");
    return xml(listObjectsV2Xml(input, { startAfter, continuationToken, nextContinuationToken }));
  },
};
