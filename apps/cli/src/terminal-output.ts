/**
 * What the CLI prints. Run names, tags, notes and a server's error codes are anyone's text, and
 * a terminal obeys the control characters in it: ESC sequences recolour, move the cursor, set the
 * window title or write the clipboard (OSC 52), CR and backspace overwrite what was printed. So
 * every printer goes through here, and only the newlines the CLI writes itself remain.
 */

/** Unicode's control characters (C0, DEL, and C1, where 8-bit CSI and OSC live) but the newline. */
const CONTROL_CHARACTERS = /(?!\n)\p{Cc}/gu;

export function withoutControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, "");
}

export function printOut(text: string): void {
  process.stdout.write(withoutControlCharacters(text));
}

export function printError(text: string): void {
  process.stderr.write(withoutControlCharacters(text));
}
