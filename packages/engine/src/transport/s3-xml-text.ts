/**
 * The little XML the fast path reads and writes: S3 response documents are flat, their text is
 * escaped (so no field can contain a tag), and the fields needed are few, so a pattern per element
 * is enough and far cheaper than a parser.
 */

/** The raw inner text of every `<name>…</name>` element (no attributes), in document order. */
export function xmlElements(xml: string, name: string): string[] {
  const pattern = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, "g");
  return Array.from(xml.matchAll(pattern), (match) => match[1] ?? "");
}

/** The decoded text of the first `<name>` element, or null when there is none. */
export function xmlElementText(xml: string, name: string): string | null {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? decodeXmlText(match[1] ?? "") : null;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

/** Resolves the five named entities and numeric references (`&#34;`, `&#x22;`). */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (entity, body: string) => {
    if (!body.startsWith("#")) return NAMED_ENTITIES[body] ?? entity;
    const codePoint = body.startsWith("#x")
      ? Number.parseInt(body.slice(2), 16)
      : Number.parseInt(body.slice(1), 10);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}

/** Text for an element body: `&`, `<`, `>` and both quotes escaped. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&${XML_ESCAPES[char]};`);
}

const XML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "amp",
  "<": "lt",
  ">": "gt",
  '"': "quot",
  "'": "apos",
};
