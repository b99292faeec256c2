import type { SecretCipher } from "@taillab/backend";
import type { SafeStorage } from "electron";

/**
 * Secrets encrypted by Electron's safeStorage, whose key the OS keychain holds (Keychain on
 * macOS, DPAPI on Windows, libsecret or KWallet on Linux). Without a keychain nothing is
 * stored: on Linux safeStorage would fall back to a key written in Chromium's source
 * ("basic_text"), which protects nothing; the user is told to use environment variables.
 */
export function safeStorageCipher(
  safeStorage: SafeStorage,
  platform: NodeJS.Platform,
): SecretCipher {
  const assertKeychain = () => {
    const basicText =
      platform === "linux" && safeStorage.getSelectedStorageBackend() === "basic_text";
    if (!safeStorage.isEncryptionAvailable() || basicText) {
      throw new Error(
        "secrets cannot be stored: no OS keychain is available to encrypt them (on Linux: start a Secret Service such as GNOME Keyring or KWallet). Use environment-variable credentials instead.",
      );
    }
  };
  return {
    keySource: "the OS keychain (safeStorage)",
    encrypt(plain) {
      assertKeychain();
      return safeStorage.encryptString(plain);
    },
    decrypt(bytes) {
      assertKeychain();
      return safeStorage.decryptString(Buffer.from(bytes));
    },
  };
}
