import type { AppInfo } from "@taillab/api";
import { create } from "zustand";
import { api, hasBackend } from "./api.ts";

interface AppInfoState {
  /** null until the host answered (or when there is none). */
  info: AppInfo | null;
  asking: boolean;
  /** Asks the host once; later calls keep the answer. */
  load(): Promise<void>;
}

/** What the host says about itself: Electron or the browser host, its version and folders. */
export const useAppInfo = create<AppInfoState>((set, get) => ({
  info: null,
  asking: false,
  async load() {
    if (!hasBackend() || get().info !== null || get().asking) return;
    set({ asking: true });
    try {
      set({ info: await api().appInfo(), asking: false });
    } catch {
      // Texts that depend on the host keep the wording that fits both; a later call asks again.
      set({ asking: false });
    }
  },
}));

/** Where stored secrets are kept: the OS keychain (Electron), an encrypted file (browser host). */
export type SecretStore = "keychain" | "file" | "unknown";

export function secretStoreOf(info: AppInfo | null): SecretStore {
  if (!info) return "unknown";
  return info.host === "electron" ? "keychain" : "file";
}
