import { S3_MAX_PART_NUMBER, unescapeXml } from "@taillab/core";
import { headerText } from "../http-headers.ts";
import { type CompletedPart, planCompletion } from "../multipart-completion.ts";
import { S3Error } from "../s3-error.ts";
import { element, s3Document } from "../s3-xml.ts";
import { bucketOf, keyOf, uploadIdOf, xml } from "./request-parts.ts";
import type { TestbedOperation } from "./testbed-operation.ts";

const COMPLETE_ROOT = /<CompleteMultipartUpload[\s>]/;
const PART_ELEMENT = /<Part(?:\s[^>]*)?>([\s\S]*?)<\/Part>/g;
const PART_NUMBER_ELEMENT = /<PartNumber>\s*([0-9]+)\s*<\/PartNumber>/;
const ETAG_ELEMENT = /<ETag>([\s\S]*?)<\/ETag>/;

/**
 * Reads the CompleteMultipartUpload body SDKs send:
 * <CompleteMultipartUpload><Part><ETag/><PartNumber/>…</Part>…</CompleteMultipartUpload>.
 * Checksums in the parts are ignored.
 */
export function parseCompleteMultipartUpload(xml: string): CompletedPart[] {
  if (!COMPLETE_ROOT.test(xml)) {
    throw new S3Error(
      "MalformedXML",
      "The CompleteMultipartUpload body has no <CompleteMultipartUpload> element",
    );
  }
  const parts: CompletedPart[] = [];
  for (const [, partBody = ""] of xml.matchAll(PART_ELEMENT)) {
    const partNumber = PART_NUMBER_ELEMENT.exec(partBody);
    const etag = ETAG_ELEMENT.exec(partBody);
    if (!partNumber || !etag) {
      throw new S3Error(
        "MalformedXML",
        "A <Part> in the CompleteMultipartUpload body needs a <PartNumber> and an <ETag>",
      );
    }
    const number = Number(partNumber[1]);
    if (number < 1 || number > S3_MAX_PART_NUMBER) {
      throw new S3Error(
        "InvalidArgument",
        `Part number must be an integer between 1 and ${S3_MAX_PART_NUMBER}, inclusive, not ${number}`,
      );
    }
    parts.push({ partNumber: number, etag: unescapeXml(etag[1] ?? "").trim() });
  }
  if (parts.length === 0) {
    throw new S3Error(
      "MalformedXML",
      "The CompleteMultipartUpload body must name at least one <Part>",
    );
  }
  return parts;
}

function completeMultipartUploadXml(result: {
  location: string;
  bucket: string;
  key: string;
  etag: string;
}): string {
  return s3Document(
    "CompleteMultipartUploadResult",
    `${element("Location", result.location)}${element("Bucket", result.bucket)}` +
      `${element("Key", result.key)}${element("ETag", result.etag)}`,
  );
}

export const completeMultipartUploadOperation: TestbedOperation<"CompleteMultipartUpload"> = {
  name: "CompleteMultipartUpload",
  route: { names: "object", method: "POST", query: ["uploadId"] },
  profiled: "timing",
  async handle(request, { store, minPartSizeBytes }) {
    const bucket = bucketOf(request);
    const key = keyOf(request);
    const uploadId = uploadIdOf(request, "CompleteMultipartUpload");
    const requested = parseCompleteMultipartUpload((await request.readBody()).toString("utf8"));
    const object = await store.completeMultipartUpload(bucket, key, uploadId, (parts) =>
      planCompletion(parts, requested, minPartSizeBytes),
    );
    const host = headerText(request.headers, "host") ?? "localhost";
    const location = `http://${host}${request.target.rawPath}`;
    return xml(completeMultipartUploadXml({ location, bucket, key, etag: object.etag }));
  },
};
