import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePorts } from "./free-port.ts";
import { answersHttp, startServerProcess } from "./server-process.ts";

export interface PrometheusServer {
  /** Its HTTP API, e.g. http://127.0.0.1:PORT (query with /api/v1/query?query=…). */
  url: string;
  stop(): Promise<void>;
}

const ENSURE_PROMETHEUS = fileURLToPath(
  new URL("../../../scripts/ensure-prometheus.sh", import.meta.url),
);

/**
 * Debian's Prometheus server, scraping `target` (host:port, path /metrics) four times a second
 * into a data folder of its own.
 */
export async function startPrometheus(target: string): Promise<PrometheusServer> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error("startPrometheus: no free port");
  const url = `http://127.0.0.1:${port}`;
  const config = [
    "global:",
    "  scrape_interval: 250ms",
    "  scrape_timeout: 200ms",
    "scrape_configs:",
    "  - job_name: taillab",
    "    static_configs:",
    `      - targets: ["${target}"]`,
  ].join("\n");
  const configFolder = await mkdtemp(join(tmpdir(), "taillab-prometheus-config-"));
  const configFile = join(configFolder, "prometheus.yml");
  await writeFile(configFile, config);
  const server = await startServerProcess({
    name: "Prometheus",
    ensureScript: ENSURE_PROMETHEUS,
    folders: ["data"],
    url,
    args: (_binary, { data }) => [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${data as string}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    env: () => ({}),
    ready: () => answersHttp(url, "/-/ready"),
  }).catch(async (error: unknown) => {
    await rm(configFolder, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    stop: async () => {
      await server.stop();
      await rm(configFolder, { recursive: true, force: true });
    },
  };
}
