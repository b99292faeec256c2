import type { RunNotice } from "@taillab/api";
import { describe, expect, it } from "vitest";
import { createSilenceWatch } from "./server-silence.ts";

/** A control plane whose probe answers as a test says (a unit test of the watch's decisions). */
function probeAnswering(...answers: (string | null)[]) {
  const probes: string[] = [];
  return {
    probes,
    controlPlane: {
      probeTimeoutMs: 3_000,
      probe: async (prefix: string) => {
        probes.push(prefix);
        return answers.shift() ?? null;
      },
    },
  };
}

const LOSS = { sinceMs: 1_000, atMs: 4_000, failures: 8, lastError: "ClientTimeout" };

describe("a run's watch on its server's silence", () => {
  it("probes once per silence, under the run's keys, and goes on while the server answers", async () => {
    const { probes, controlPlane } = probeAnswering(null);
    const said: RunNotice[] = [];
    const watch = createSilenceWatch(controlPlane, 0, {
      keyPrefix: "taillab/r/",
      say: (notice) => said.push(notice),
    });
    expect(await watch.serverAnswers()).toBe(true);
    watch.lost(0, "PUT", LOSS);
    expect(await watch.serverAnswers()).toBe(true);
    expect(await watch.serverAnswers()).toBe(true);
    expect(probes).toEqual(["taillab/r/"]);
    expect(said.map((notice) => notice.code)).toEqual(["serverLost", "serverProbe", "serverBack"]);
    expect(watch.gone).toBeNull();
    expect(watch.losses).toEqual([
      {
        pointIndex: 0,
        phase: "PUT",
        at: "1970-01-01T00:00:01.000Z",
        sinceMs: 1_000,
        silentMs: 3_000,
        failures: 8,
        lastError: "ClientTimeout",
      },
    ]);
  });

  it("ends the run when the probe gets no answer: every later question is no, and what did not run is kept and said once", async () => {
    const { probes, controlPlane } = probeAnswering("ECONNREFUSED");
    const said: RunNotice[] = [];
    const watch = createSilenceWatch(controlPlane, 0, {
      keyPrefix: "taillab/r/",
      say: (notice) => said.push(notice),
    });
    watch.lost(0, "PUT", LOSS);
    expect(await watch.serverAnswers()).toBe(false);
    expect(await watch.serverAnswers()).toBe(false);
    expect(probes).toHaveLength(1);
    watch.endRun([
      { pointIndex: 0, phase: "GET" },
      { pointIndex: 1, phase: "PUT" },
      { pointIndex: 1, phase: "GET" },
    ]);
    expect(watch.gone).toMatchObject({ sinceMs: 1_000, probeError: "ECONNREFUSED" });
    expect(watch.silentServer).toBe("ECONNREFUSED");
    expect(watch.gone?.notRun).toHaveLength(3);
    expect(said.at(-1)).toEqual({
      code: "serverGone",
      params: { probeError: "ECONNREFUSED", phases: ["GET"], points: 1 },
    });
  });

  it("a stop during the probe is not the server's verdict: the run goes on to see its stop, and its cleanup asks the silent server nothing", async () => {
    const { controlPlane } = probeAnswering("Aborted");
    const watch = createSilenceWatch(controlPlane, 0, { keyPrefix: "p/", say: () => {} });
    watch.lost(0, "PUT", LOSS);
    expect(await watch.serverAnswers()).toBe(true);
    expect(watch.gone).toBeNull();
    expect(watch.silentServer).toBe("ClientTimeout");
  });

  it("a cleanup asks a server that answered, or answered again, as any other", async () => {
    const { controlPlane } = probeAnswering(null);
    const watch = createSilenceWatch(controlPlane, 0, { keyPrefix: "p/", say: () => {} });
    expect(watch.silentServer).toBeNull();
    watch.lost(0, "PUT", LOSS);
    expect(await watch.serverAnswers()).toBe(true);
    expect(watch.silentServer).toBeNull();
  });
});
