/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * SafeHtml: data (run names, notes, tags, spec values) can only reach a report escaped, and
 * markup has to be asked for by wrapping it with `markup` itself.
 */

const SAFE = Symbol("SafeHtml");

export interface SafeHtml {
  readonly [SAFE]: true;
  readonly text: string;
}

export type HtmlValue =
  SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] as string);
}

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === "object" && value !== null && SAFE in value;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (isSafe(value)) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/** Markup that is trusted as is; only for text this package generated itself. */
export function trustedHtml(text: string): SafeHtml {
  return { [SAFE]: true, text };
}

/**
 * The literal text of each template, with every line break and the indentation around it turned
 * into one space (or nothing, between tags), so templates can be laid out over many lines for
 * reading without that layout reaching, and bloating, the page. A line break only ever sits where
 * markup treats whitespace as one space; interpolated values (notes with their line breaks) are
 * never touched.
 */
const collapsed = new WeakMap<TemplateStringsArray, readonly string[]>();

function literalParts(strings: TemplateStringsArray): readonly string[] {
  let parts = collapsed.get(strings);
  if (!parts) {
    parts = strings.map((part) =>
      part.replace(/\s*\n\s*/g, (gap, offset: number) => {
        const before = part[offset - 1];
        const after = part[offset + gap.length];
        // Between two tags, or before a tag's closing bracket, the gap carries no meaning at all.
        const meaningless = (before === ">" && after === "<") || after === ">" || after === "/";
        return meaningless ? "" : " ";
      }),
    );
    collapsed.set(strings, parts);
  }
  return parts;
}

export function markup(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  const parts = literalParts(strings);
  let text = parts[0] ?? "";
  values.forEach((value, index) => {
    text += render(value) + (parts[index + 1] ?? "");
  });
  return trustedHtml(text);
}

export function renderHtml(value: HtmlValue): string {
  return render(value);
}
