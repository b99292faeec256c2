/**
 * What every S3 XML document the testbed writes shares: the declaration and namespace, escaped
 * elements, the owner, `encoding-type=url` and the error document. Each operation writes its own
 * document in its module under operations/. Rendering is string building and reading is a
 * handful of regexes over the known shape: an XML library would cost more per request than
 * everything else the testbed does.
 */
import { escapeXml } from "@taillab/core";

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";
export const XML_CONTENT_TYPE = "application/xml";
/** The owner and initiator of everything the testbed stores: it has one user. */
export const OWNER = "<ID>taillab</ID><DisplayName>taillab</DisplayName>";

export function element(name: string, text: string | number | boolean): string {
  return `<${name}>${typeof text === "string" ? escapeXml(text) : String(text)}</${name}>`;
}

/** A response document: `root` in S3's namespace around `content` (already XML). */
export function s3Document(root: string, content: string): string {
  return `${XML_DECLARATION}<${root} xmlns="${S3_NAMESPACE}">${content}</${root}>`;
}

/** S3's `encoding-type=url` form: spaces as '+', '/' left readable. */
function urlEncode(text: string): string {
  return encodeURIComponent(text).replaceAll("%2F", "/").replaceAll("%20", "+");
}

function unchanged(text: string): string {
  return text;
}

/** How a listing writes keys and prefixes: URL-encoded when the request asked for it. */
export function keyEncoder(urlEncoded: boolean): (text: string) => string {
  return urlEncoded ? urlEncode : unchanged;
}

export interface ErrorDocument {
  code: string;
  message: string;
  resource: string;
  requestId: string;
}

export function errorXml(error: ErrorDocument): string {
  return (
    `${XML_DECLARATION}<Error>${element("Code", error.code)}${element("Message", error.message)}` +
    `${element("Resource", error.resource)}${element("RequestId", error.requestId)}</Error>`
  );
}
