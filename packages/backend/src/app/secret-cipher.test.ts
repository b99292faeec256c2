import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keyFileCipher, passphraseCipher } from "./secret-cipher.ts";

describe("passphraseCipher", () => {
  it("round-trips, with a fresh IV per secret and no plaintext in the bytes", () => {
    const cipher = passphraseCipher("correct horse");
    const first = cipher.encrypt("s3cret-key");
    const second = cipher.encrypt("s3cret-key");
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(false);
    expect(Buffer.from(first).toString("latin1")).not.toContain("s3cret");
    expect(cipher.decrypt(first)).toBe("s3cret-key");
    // Another instance with the same passphrase reads it (the salt travels with the bytes).
    expect(passphraseCipher("correct horse").decrypt(second)).toBe("s3cret-key");
  });

  it("refuses another key and changed bytes instead of returning garbage", () => {
    const bytes = passphraseCipher("one").encrypt("secret");
    expect(() => passphraseCipher("two").decrypt(bytes)).toThrow(/cannot be decrypted/);
    const tampered = Buffer.from(bytes);
    tampered[tampered.length - 20] = (tampered[tampered.length - 20] ?? 0) ^ 1;
    expect(() => passphraseCipher("one").decrypt(tampered)).toThrow(/cannot be decrypted/);
    expect(() => passphraseCipher("one").decrypt(Buffer.from("short"))).toThrow(/not a secret/);
  });
});

describe("keyFileCipher", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "taillab-key-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("creates a 32-byte key readable by its owner only, and reuses it", async () => {
    const path = join(dir, "secret.key");
    const [first, second] = await Promise.all([keyFileCipher(path), keyFileCipher(path)]);
    const info = await stat(path);
    expect(info.mode & 0o777).toBe(0o600);
    expect((await readFile(path)).length).toBe(32);
    const later = await keyFileCipher(path);
    expect(later.decrypt(first.encrypt("a"))).toBe("a");
    expect(first.decrypt(second.encrypt("b"))).toBe("b");
  });

  it("refuses a key file of the wrong size", async () => {
    const path = join(dir, "secret.key");
    await writeFile(path, "too short");
    await expect(keyFileCipher(path)).rejects.toThrow(/expected a key of 32 bytes, found 9/);
  });
});
