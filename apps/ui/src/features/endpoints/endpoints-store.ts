import type { SavedEndpoint } from "@taillab/api";
import { create } from "zustand";
import { api } from "../../app/api.ts";
import { errorText } from "../../shared/said.ts";
import { withoutKey } from "../../shared/without-key.ts";
import { PENDING_TEST, runConnectionTest, type ConnectionTestState } from "./connection-test.ts";

interface EndpointsState {
  endpoints: SavedEndpoint[];
  loaded: boolean;
  error: string | null;
  /** The last connection test of each saved endpoint, by id. */
  tests: Record<string, ConnectionTestState>;
  load(): Promise<void>;
  /** A saved endpoint replaces the one with its id, or joins the list. */
  upsert(endpoint: SavedEndpoint): void;
  remove(endpointId: string): Promise<void>;
  test(endpointId: string): Promise<void>;
  /** Creates a saved endpoint's bucket, then shows its new verdict. */
  createBucket(endpointId: string): Promise<void>;
}

export const useEndpoints = create<EndpointsState>((set, get) => ({
  endpoints: [],
  loaded: false,
  error: null,
  tests: {},

  async load() {
    set({ error: null });
    try {
      set({ endpoints: await api().listEndpoints(), loaded: true });
    } catch (error) {
      set({ error: errorText(error) });
    }
  },

  upsert(endpoint) {
    const others = get().endpoints.filter((known) => known.id !== endpoint.id);
    const index = get().endpoints.findIndex((known) => known.id === endpoint.id);
    const endpoints = [...others];
    endpoints.splice(index === -1 ? others.length : index, 0, endpoint);
    // An edited endpoint's old verdict no longer says anything about it.
    set({ endpoints, tests: withoutKey(get().tests, endpoint.id) });
  },

  async remove(endpointId) {
    try {
      await api().removeEndpoint({ endpointId });
      set({
        endpoints: get().endpoints.filter((known) => known.id !== endpointId),
        tests: withoutKey(get().tests, endpointId),
      });
    } catch (error) {
      set({ error: errorText(error) });
    }
  },

  async test(endpointId) {
    set({ tests: { ...get().tests, [endpointId]: PENDING_TEST } });
    const { state } = await runConnectionTest({ endpointId });
    set({ tests: { ...get().tests, [endpointId]: state } });
  },

  async createBucket(endpointId) {
    set({ tests: { ...get().tests, [endpointId]: PENDING_TEST } });
    const { state } = await runConnectionTest({ endpointId }, "createBucket");
    set({ tests: { ...get().tests, [endpointId]: state } });
  },
}));
