import type { TailLabApi } from "@taillab/api";
import { create } from "zustand";
import { api } from "../app/api.ts";

export type LatencyProfileInfo = Awaited<ReturnType<TailLabApi["listLatencyProfiles"]>>[number];

interface LatencyProfilesState {
  profiles: LatencyProfileInfo[];
  loaded: boolean;
  /** Asks the backend once; the endpoint form and the experiment builder both list them. */
  load(): Promise<void>;
}

export const useLatencyProfiles = create<LatencyProfilesState>((set, get) => ({
  profiles: [],
  loaded: false,
  async load() {
    if (get().loaded) return;
    try {
      set({ profiles: await api().listLatencyProfiles(), loaded: true });
    } catch {
      // The backend may be missing (the shell says so); the picker then offers the names it has.
    }
  },
}));
