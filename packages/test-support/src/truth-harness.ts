import { fork, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { WireEntry } from "./truth/wire-proxy.ts";

export type { WireEntry } from "./truth/wire-proxy.ts";

/**
 * The truth harness: a server with a known latency distribution and a proxy that timestamps
 * every request on the wire, each a process of its own importing nothing of TailLab's, so a test
 * can hold TailLab's records against what really crossed the wire (the README of this package).
 */
export type KnownLatencyModel =
  | { kind: "fixed"; ms: number }
  | { kind: "bimodal"; fastMs: number; slowMs: number; slowShare: number; seed?: number }
  | { kind: "stalls"; baseMs: number; stallMs: number; probability: number; seed?: number }
  | { kind: "freeze"; baseMs: number; periodMs: number; freezeMs: number };

export interface TruthProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  stop(): Promise<void>;
}

export interface WireProxy extends TruthProcess {
  /** Every request the proxy saw so far, in the order they arrived. */
  entries(): Promise<WireEntry[]>;
}

const truthFolder = join(import.meta.dirname, "truth");

async function startTruthProcess(
  script: string,
  arg: string,
): Promise<{ child: ChildProcess } & TruthProcess> {
  const child = fork(join(truthFolder, script), [arg], {
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stdout = child.stdout;
  if (!stdout) throw new Error(`${script}: no output channel`);
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) =>
      reject(new Error(`${script} exited with ${code} before listening`)),
    );
    createInterface({ input: stdout }).once("line", (line) => {
      resolve((JSON.parse(line) as { port: number }).port);
    });
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      process.off("exit", killOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

export async function startKnownLatencyServer(model: KnownLatencyModel): Promise<TruthProcess> {
  const { url, stop } = await startTruthProcess("known-latency-server.ts", JSON.stringify(model));
  return { url, stop };
}

export async function startWireProxy(upstreamUrl: string): Promise<WireProxy> {
  const { child, url, stop } = await startTruthProcess("wire-proxy.ts", upstreamUrl);
  return {
    url,
    stop,
    entries: () =>
      new Promise((resolve) => {
        child.once("message", (message) => resolve(message as WireEntry[]));
        child.send("log");
      }),
  };
}
