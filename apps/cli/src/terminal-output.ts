/**
 * What the CLI prints. Run names, tags, notes and a server's error codes are anyone's text, and
 * a terminal obeys the control characters in it: ESC sequences recolour, move the cursor, set the
 * window title or write the clipboard (OSC 52), CR and backspace overwrite what was printed; bidi
 * overrides and isolates show text in another order than it is (a run named "run\u202Egpj.exe"
 * reads as "runexe.jpg"). So every printer goes through here, and only the newlines the CLI
 * writes itself remain.
 */

import { withoutControlCharacters } from "@taillab/core";

export { withoutControlCharacters };

/**
 * What JSON.stringify leaves raw of those: it escapes C0 only. In JSON text they can only stand
 * inside strings, where a \u escape means the same character.
 */
const RAW_IN_JSON = /[\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** JSON text with every control and bidi character escaped: the same value, safe to print. */
export function escapedJson(json: string): string {
  return json.replace(RAW_IN_JSON, (character) => {
    return `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  });
}

export function printOut(text: string): void {
  process.stdout.write(withoutControlCharacters(text));
}

export function printError(text: string): void {
  process.stderr.write(withoutControlCharacters(text));
}

/** A value as pretty JSON, losslessly: names and codes keep every character, escaped. */
export function printJson(value: unknown): void {
  process.stdout.write(`${escapedJson(JSON.stringify(value, null, 2))}\n`);
}
