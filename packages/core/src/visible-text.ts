/**
 * A server's or a user's words as they are shown: run names, endpoint names, a server's error
 * codes and messages. Whatever shows them obeys the control characters in them — a terminal
 * takes ESC sequences (colours, the cursor, the window title, the clipboard), CR and backspace
 * overwrite what was printed — and bidi overrides and isolates show text in another order than
 * it is, in a terminal and in the app alike (a code "\u202E005 PTTH" reads "HTTP 500", and an
 * honest "HTTP 500" after one reads "005 PTTH").
 */

/**
 * Unicode's control characters (C0, DEL, and C1, where 8-bit CSI and OSC live) but the newline,
 * and the bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069).
 */
const HIDDEN_CHARACTERS = /(?!\n)\p{Cc}|[\u202A-\u202E\u2066-\u2069]/gu;

/** The text with each such character shown as its escape (`\u202E`): nothing hidden, nothing lost. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (character) => {
    const hex = (character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    return `\\u${hex}`;
  });
}

/** The text without them, for a terminal line that must stay plain. */
export function withoutControlCharacters(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, "");
}
