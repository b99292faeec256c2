import { chmod, mkdir } from "node:fs/promises";

/**
 * The data folder holds secrets.json and the browser host's key file, so it is its owner's only
 * (0700): made so, and made so again when an older TailLab (or a umask) left it open to others.
 * Answers a warning for the user when the folder's mode cannot be changed (not its owner).
 */
export async function openPrivateFolder(path: string): Promise<string | null> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  try {
    await chmod(path, 0o700);
    return null;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return `the data folder ${path} could not be made readable by its owner only (${code}): other users of this machine may read its files`;
  }
}
