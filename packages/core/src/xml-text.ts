/**
 * XML text escaping, the one copy: the engine writes S3 request bodies and reads S3 answers with
 * it, the testbed the reverse, the report its JUnit file. Their documents are flat and their
 * fields few, so string building and a pattern per element are enough (and far cheaper per
 * request than an XML library); what has to be right is the escaping.
 */

const SPECIAL_CHARACTER = /[&<>"']/;
const SPECIAL_CHARACTERS = /[&<>"']/g;
const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Text for an element body or a quoted attribute: `&`, `<`, `>` and both quotes escaped. */
export function escapeXml(text: string): string {
  // Most keys and values hold none of them: no new string for those.
  return SPECIAL_CHARACTER.test(text)
    ? text.replace(SPECIAL_CHARACTERS, (character) => ESCAPES[character] as string)
    : text;
}

const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi;
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

/**
 * Resolves the five named entities and numeric references (`&#34;`, `&#x22;`); anything else,
 * a code point past Unicode's included, stays as it is.
 */
export function unescapeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (entity, name: string) => {
    if (name[0] !== "#") return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
    const codePoint =
      name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}
