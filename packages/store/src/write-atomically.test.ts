import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFileOwner, temporaryPathFor, writeFileAtomically } from "./write-atomically.ts";

describe("writeFileAtomically", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "taillab-atomic-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("replaces the file and leaves no temporary file behind", async () => {
    const path = join(dir, "summary.json");
    await writeFile(path, "old");
    await writeFileAtomically(path, "new");
    expect(await readFile(path, "utf8")).toBe("new");
    expect(await readdir(dir)).toEqual(["summary.json"]);
  });

  it("keeps the old contents, and no temporary file, when the write fails", async () => {
    const path = join(dir, "run.json");
    await writeFile(path, "old");
    const full = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    await expect(
      writeFileAtomically(path, "new", async (file, bytes) => {
        await file.write(bytes.subarray(0, 1), 0, 1, 0);
        throw full;
      }),
    ).rejects.toBe(full);
    expect(await readFile(path, "utf8")).toBe("old");
    expect((await readdir(dir)).sort()).toEqual(["run.json", "summary.json"]);
  });

  it("names temporary files after their process, so a later open can tell abandoned ones", () => {
    const name = temporaryPathFor("/x/index.json").slice("/x/".length);
    expect(temporaryFileOwner(name)).toBe(process.pid);
    expect(temporaryFileOwner("index.json")).toBeNull();
  });
});
