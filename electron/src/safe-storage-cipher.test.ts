import type { SafeStorage } from "electron";
import { describe, expect, it, vi } from "vitest";
import { safeStorageCipher } from "./safe-storage-cipher.ts";

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

/** safeStorage with a reversible stand-in for the keychain's encryption. */
function fakeSafeStorage(available: boolean, backend = "gnome_libsecret") {
  return {
    isEncryptionAvailable: vi.fn(() => available),
    getSelectedStorageBackend: vi.fn(() => backend),
    encryptString: vi.fn((plain: string) =>
      Buffer.from(`sealed:${Buffer.from(plain).toString("base64")}`),
    ),
    decryptString: vi.fn((sealed: Buffer) =>
      Buffer.from(sealed.toString().slice("sealed:".length), "base64").toString(),
    ),
  };
}

describe("safeStorageCipher", () => {
  it("encrypts and decrypts through safeStorage", () => {
    const storage = fakeSafeStorage(true);
    const cipher = safeStorageCipher(storage as unknown as SafeStorage, "linux");
    const sealed = cipher.encrypt(SECRET);
    expect(storage.encryptString).toHaveBeenCalledExactlyOnceWith(SECRET);
    expect(Buffer.from(sealed).toString()).not.toContain(SECRET);
    expect(cipher.decrypt(sealed)).toBe(SECRET);
    expect(storage.decryptString).toHaveBeenCalledOnce();
  });

  it("refuses to store a secret without a keychain, saying what to do", () => {
    const storage = fakeSafeStorage(false);
    const cipher = safeStorageCipher(storage as unknown as SafeStorage, "darwin");
    expect(() => cipher.encrypt(SECRET)).toThrow(
      /secrets cannot be stored: no OS keychain .* Use environment-variable credentials instead/,
    );
    expect(storage.encryptString).not.toHaveBeenCalled();
  });

  it("treats Linux's fixed-key fallback as no keychain", () => {
    const storage = fakeSafeStorage(true, "basic_text");
    const cipher = safeStorageCipher(storage as unknown as SafeStorage, "linux");
    expect(() => cipher.encrypt(SECRET)).toThrow(/no OS keychain/);
    expect(storage.encryptString).not.toHaveBeenCalled();
  });

  it("asks for the Linux backend on Linux only", () => {
    const storage = fakeSafeStorage(true);
    safeStorageCipher(storage as unknown as SafeStorage, "win32").encrypt(SECRET);
    expect(storage.getSelectedStorageBackend).not.toHaveBeenCalled();
  });
});
