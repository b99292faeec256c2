import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
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

  it("names its key in a failure", () => {
    const bytes = passphraseCipher("one").encrypt("secret");
    expect(() => passphraseCipher("two", "TAILLAB_SECRETS_PASSPHRASE").decrypt(bytes)).toThrow(
      "the secret cannot be decrypted with TAILLAB_SECRETS_PASSPHRASE",
    );
  });

  it("derives its key with scrypt at OWASP's cost: N = 2^17, r = 8, p = 1", () => {
    const sealed = Buffer.from(passphraseCipher("correct horse").encrypt("s3cret-key"));
    expect(sealed[0]).toBe(2);
    const salt = sealed.subarray(1, 17);
    const iv = sealed.subarray(17, 29);
    const key = scryptSync("correct horse", salt, 32, {
      N: 2 ** 17,
      r: 8,
      p: 1,
      maxmem: 256 * 1024 * 1024,
    });
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    const plain = Buffer.concat([
      decipher.update(sealed.subarray(29, sealed.length - 16)),
      decipher.final(),
    ]);
    expect(plain.toString("utf8")).toBe("s3cret-key");
  });

  it("opens a secret sealed at Node's default scrypt cost (format 1) and asks to seal it again", () => {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", scryptSync("correct horse", salt, 32), iv);
    const body = Buffer.concat([cipher.update("old-secret", "utf8"), cipher.final()]);
    const old = Buffer.concat([Buffer.of(1), salt, iv, body, cipher.getAuthTag()]);
    const current = passphraseCipher("correct horse");
    expect(current.decrypt(old)).toBe("old-secret");
    expect(current.needsResealing?.(old)).toBe(true);
    const resealed = current.encrypt(current.decrypt(old));
    expect(current.needsResealing?.(resealed)).toBe(false);
  });

  it("seals every secret under one salt, adopted from the first it opens", () => {
    const earlier = passphraseCipher("p").encrypt("a");
    const other = passphraseCipher("p").encrypt("b");
    const cipher = passphraseCipher("p");
    expect(cipher.decrypt(earlier)).toBe("a");
    expect(cipher.needsResealing?.(earlier)).toBe(false);
    expect(cipher.decrypt(other)).toBe("b");
    expect(cipher.needsResealing?.(other)).toBe(true);
    const salt = (bytes: Uint8Array) => Buffer.from(bytes).subarray(1, 17).toString("hex");
    expect(salt(cipher.encrypt("c"))).toBe(salt(earlier));
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

  it("makes a key file others could read its owner's only again", async () => {
    const path = join(dir, "secret.key");
    await keyFileCipher(path);
    await chmod(path, 0o644);
    const cipher = await keyFileCipher(path);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(cipher.keySource).toBe(`the key file ${path}`);
  });

  it("refuses a key file of the wrong size", async () => {
    const path = join(dir, "secret.key");
    await writeFile(path, "too short");
    await expect(keyFileCipher(path)).rejects.toThrow(/expected a key of 32 bytes, found 9/);
  });
});
