import { S3_MAX_DELETE_KEYS, unescapeXml } from "@taillab/core";
import { checkBodyDigests } from "../body-digests.ts";
import { noSuchBucket, S3Error } from "../s3-error.ts";
import type { RequestTarget } from "../s3-route.ts";
import { element, s3Document } from "../s3-xml.ts";
import { bucketOf, checkKeyLength, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

interface DeleteRequest {
  quiet: boolean;
  keys: string[];
}

const DELETE_ROOT = /<Delete[\s>]/;
const OBJECT_ELEMENT = /<Object(?:\s[^>]*)?>([\s\S]*?)<\/Object>/g;
const KEY_ELEMENT = /<Key>([\s\S]*?)<\/Key>/;
const QUIET_TRUE = /<Quiet>\s*true\s*<\/Quiet>/i;

/** Reads the DeleteObjects body SDKs send: <Delete><Quiet/>?<Object><Key/></Object>…</Delete>. */
export function parseDeleteRequest(xml: string): DeleteRequest {
  if (!DELETE_ROOT.test(xml)) {
    throw new S3Error("MalformedXML", "The DeleteObjects body has no <Delete> element");
  }
  const keys: string[] = [];
  for (const [, objectBody = ""] of xml.matchAll(OBJECT_ELEMENT)) {
    const key = KEY_ELEMENT.exec(objectBody);
    if (!key)
      throw new S3Error("MalformedXML", "An <Object> in the DeleteObjects body has no <Key>");
    keys.push(unescapeXml(key[1] ?? ""));
  }
  if (keys.length === 0 || keys.length > S3_MAX_DELETE_KEYS) {
    throw new S3Error(
      "MalformedXML",
      `A DeleteObjects body must name 1 to ${S3_MAX_DELETE_KEYS} objects; this one names ${keys.length}`,
    );
  }
  return { quiet: QUIET_TRUE.test(xml), keys };
}

interface DeleteFailure {
  key: string;
  code: string;
  message: string;
}

export function deleteResultXml(
  deleted: readonly string[],
  failures: readonly DeleteFailure[],
): string {
  const deletedEntries = deleted.map((key) => `<Deleted>${element("Key", key)}</Deleted>`);
  const errorEntries = failures.map(
    (failure) =>
      `<Error>${element("Key", failure.key)}${element("Code", failure.code)}${element("Message", failure.message)}</Error>`,
  );
  return s3Document("DeleteResult", deletedEntries.join("") + errorEntries.join(""));
}

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
