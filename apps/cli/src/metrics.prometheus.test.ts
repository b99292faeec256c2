import { LIVE_METRIC_NAMES } from "@taillab/report";
import { startPrometheus, type PrometheusServer } from "@taillab/test-support";
import { readFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { startCli } from "./test-support/run-cli.ts";

const DASHBOARD = new URL("../../../assets/grafana/taillab-live.json", import.meta.url);

let prometheus: PrometheusServer | null = null;
afterAll(async () => {
  await prometheus?.stop();
});

/** One instant query's samples: labels and value. */
async function query(
  server: PrometheusServer,
  expression: string,
): Promise<{ metric: Record<string, string>; value: number }[]> {
  const response = await fetch(
    `${server.url}/api/v1/query?query=${encodeURIComponent(expression)}`,
  );
  const body = (await response.json()) as {
    data: { result: { metric: Record<string, string>; value: [number, string] }[] };
  };
  return body.data.result.map(({ metric, value }) => ({ metric, value: Number(value[1]) }));
}

/** Polls until `check` holds (Prometheus scrapes four times a second), or fails after a minute. */
async function eventually<T>(look: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await look();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("taillab run --metrics, scraped by a real Prometheus server", () => {
  it("serves ops, errors, p50/p99/p99.9 per operation and the client's verdict, which Prometheus reads without a scrape error", async () => {
    const run = startCli([
      "run",
      "--clients",
      "2",
      "--rate",
      "50/s",
      "--duration",
      "120s",
      "--size",
      "1KiB",
      "--phases",
      "write",
      "--metrics",
      "127.0.0.1:0",
    ]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = "";
        run.child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
          const found = /live metrics at (http:\/\/\S+\/metrics)/.exec(stderr);
          if (found?.[1]) resolve(found[1]);
        });
        run.child.once("exit", () => reject(new Error(`taillab run ended first: ${stderr}`)));
      });
      prometheus = await startPrometheus(new URL(url).host);
      const server = prometheus;

      const requests = await eventually(
        () => query(server, `${LIVE_METRIC_NAMES.requests}_total`),
        (samples) => (samples[0]?.value ?? 0) > 0,
      );
      expect(requests).toEqual([
        {
          metric: expect.objectContaining({ op: "PUT", job: "taillab" }),
          value: expect.any(Number),
        },
      ]);
      expect(requests[0]?.value).toBeGreaterThan(0);
      const p99 = await eventually(
        () => query(server, LIVE_METRIC_NAMES.p99),
        (samples) => samples.length > 0,
      );
      expect(p99[0]?.value).toBeGreaterThan(0);
      for (const name of [LIVE_METRIC_NAMES.p50, LIVE_METRIC_NAMES.p999]) {
        expect((await query(server, name))[0]?.metric.op).toBe("PUT");
      }
      const clientBound = await eventually(
        () => query(server, LIVE_METRIC_NAMES.clientBound),
        (samples) => samples.length > 0,
      );
      expect([0, 1]).toContain(clientBound[0]?.value);
      expect(await query(server, `${LIVE_METRIC_NAMES.errors}_total`)).toEqual([
        { metric: expect.objectContaining({ op: "PUT" }), value: 0 },
      ]);
      // The scrape itself: healthy, read as OpenMetrics (a strict parser: # EOF, TYPE before samples).
      const targets = (await (await fetch(`${server.url}/api/v1/targets`)).json()) as {
        data: { activeTargets: { health: string; lastError: string }[] };
      };
      expect(targets.data.activeTargets).toEqual([
        expect.objectContaining({ health: "up", lastError: "" }),
      ]);

      // Every query of the Grafana dashboard has data from this run.
      const dashboard = JSON.parse(await readFile(DASHBOARD, "utf8")) as {
        panels: { title: string; targets?: { expr: string }[] }[];
      };
      const expressions = dashboard.panels.flatMap((panel) =>
        (panel.targets ?? []).map((target) => ({ title: panel.title, expr: target.expr })),
      );
      expect(expressions.length).toBeGreaterThan(0);
      for (const { title, expr } of expressions) {
        // A rate needs two scrapes inside its window.
        const answered = await eventually(
          () => query(server, expr.replaceAll("$__rate_interval", "5s")),
          (samples) => samples.length > 0,
        );
        expect(answered.length, `${title}: ${expr}`).toBeGreaterThan(0);
      }
    } finally {
      run.child.kill("SIGINT");
      await run.result;
    }
  });
});
