import { checkBodyDigests } from "../body-digests.ts";
import { noSuchBucket, S3Error } from "../s3-error.ts";
import type { RequestTarget } from "../s3-route.ts";
import { type DeleteFailure, deleteResultXml, parseDeleteRequest } from "../s3-xml.ts";
import { bucketOf, checkKeyLength, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

/** A POST to a bucket without `?delete` is a browser form's upload (PostObject). */
function refusePostUpload({ query }: RequestTarget): void {
  if (!query.has("delete")) {
    throw new S3Error(
      "NotImplemented",
      "The testbed does not implement POST uploads (browser forms)",
    );
  }
}

export const deleteObjectsOperation: TestbedOperation<"DeleteObjects"> = {
  name: "DeleteObjects",
  route: { names: "bucket", method: "POST", refuse: refusePostUpload },
  profiled: "no",
  async handle(request, { store }) {
    const bucket = bucketOf(request);
    const body = await request.readBody();
    checkBodyDigests(body, request.headers);
    const { quiet, keys } = parseDeleteRequest(body.toString("utf8"));
    if (!(await store.hasBucket(bucket))) throw noSuchBucket(bucket);
    const outcomes = await Promise.all(
      keys.map(async (key): Promise<DeleteFailure | undefined> => {
        try {
          checkKeyLength(key);
          await store.deleteObject(bucket, key);
          return undefined;
        } catch (error) {
          const { code, message } =
            error instanceof S3Error ? error : { code: "InternalError", message: String(error) };
          return { key, code, message };
        }
      }),
    );
    const failures = outcomes.filter((outcome) => outcome !== undefined);
    const deleted = quiet ? [] : keys.filter((_key, i) => outcomes[i] === undefined);
    return xml(deleteResultXml(deleted, failures));
  },
};
