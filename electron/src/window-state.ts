import { randomBytes } from "node:crypto";
import { readFile, rename, unlink, writeFile } from "node:fs/promises";

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Bounds;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 800 };

/** At least this much of a saved window must lie on a display for the position to be kept. */
const MIN_VISIBLE_PX = 100;

/**
 * The state saved last time, or null when there is none or it is unreadable (a hand-edited
 * or half-written file just means the window opens at its default place).
 */
export async function loadWindowState(file: string): Promise<WindowState | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return null;
  }
  const state = parsed as Partial<WindowState> | null;
  const bounds = state?.bounds;
  const numbers = bounds && [bounds.x, bounds.y, bounds.width, bounds.height];
  if (!numbers || !numbers.every((value) => Number.isFinite(value))) return null;
  return { bounds: bounds as Bounds, maximized: state.maximized === true };
}

/** Written beside its place and renamed over it, so a crash never leaves half a file. */
export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, JSON.stringify(state, null, 2));
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

/**
 * The bounds to open with: the saved ones when enough of them is on one of today's displays
 * (a monitor unplugged since would leave the window out of reach), else just the saved or
 * default size, which the OS centres.
 */
export function restorableBounds(saved: WindowState | null, workAreas: Bounds[]): Partial<Bounds> {
  if (saved === null) return { ...DEFAULT_SIZE };
  const { bounds } = saved;
  const visible = workAreas.some((area) => {
    const width =
      Math.min(bounds.x + bounds.width, area.x + area.width) - Math.max(bounds.x, area.x);
    const height =
      Math.min(bounds.y + bounds.height, area.y + area.height) - Math.max(bounds.y, area.y);
    return width >= MIN_VISIBLE_PX && height >= MIN_VISIBLE_PX;
  });
  return visible ? { ...bounds } : { width: bounds.width, height: bounds.height };
}
