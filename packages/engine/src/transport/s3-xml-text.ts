import { unescapeXml } from "@taillab/core";

/**
 * The little XML the fast path reads and writes: S3 response documents are flat, their text is
 * escaped (so no field can contain a tag), and the fields needed are few, so a pattern per element
 * is enough and far cheaper than a parser. Escaping is core's (xml-text.ts).
 */

/** The raw inner text of every `<name>…</name>` element (no attributes), in document order. */
export function xmlElements(xml: string, name: string): string[] {
  const pattern = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, "g");
  return Array.from(xml.matchAll(pattern), (match) => match[1] ?? "");
}

/** The decoded text of the first `<name>` element, or null when there is none. */
export function xmlElementText(xml: string, name: string): string | null {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? unescapeXml(match[1] ?? "") : null;
}
