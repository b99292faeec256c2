/** The app's own CJK font (theme.css's @font-face rules, built by `./pnpm build:font`). */
const CJK_FONT_FAMILY = "TailLab CJK";
/** One weight inside each of its two faces: regular text and bold titles. */
const FACE_WEIGHTS = [400, 700];

/**
 * Loads both faces as the app starts, whatever its language. A browser fetches a face only when
 * text needs it, so after a switch to Chinese the bold face came late and other fonts (or empty
 * boxes) drew the titles meanwhile.
 */
export function loadCjkFont(): Promise<unknown> {
  return Promise.all(
    FACE_WEIGHTS.map((weight) => document.fonts.load(`${weight} 1em "${CJK_FONT_FAMILY}"`, "中")),
  );
}
