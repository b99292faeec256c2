import { checkBodyDigests } from "../body-digests.ts";
import { noSuchBucket, S3Error } from "../s3-error.ts";
import { type DeleteFailure, deleteResultXml, parseDeleteRequest } from "../s3-xml.ts";
import { bucketOf, checkKeyLength, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

export const deleteObjectsOperation: TestbedOperation<"DeleteObjects"> = {
  name: "DeleteObjects",
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
