import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_UNPROVEN_CONNECTIONS } from "./connection-limit.ts";

/** The `taillab web` command as a user runs it: a real process, stopped by a signal. */

const MAIN = join(import.meta.dirname, "main.ts");

let folder: string;
let child: ChildProcess | null = null;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "taillab-web-main-"));
  mkdirSync(join(folder, "ui"));
  writeFileSync(join(folder, "ui", "index.html"), `<script type="module" src="./a.js"></script>`);
});

afterEach(() => {
  if (child?.exitCode === null) child.kill("SIGKILL");
  child = null;
  rmSync(folder, { recursive: true, force: true });
});

function start(env: Record<string, string> = {}, { maxOpenFiles = 0 } = {}) {
  const args = ["--data-dir", join(folder, "data"), "--results", join(folder, "results")];
  const command = [process.execPath, MAIN, ...args, "--ui-dir", join(folder, "ui")];
  // `ulimit -n` in the shell that execs the host: its file descriptors run out as a busy
  // machine's would, at a count a test can reach.
  const [file, ...fileArgs] =
    maxOpenFiles > 0
      ? ["sh", "-c", `ulimit -n ${maxOpenFiles} && exec "$@"`, "sh", ...command]
      : command;
  child = spawn(file!, fileArgs, {
    env: { ...process.env, TAILLAB_SECRETS_PASSPHRASE: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const running = child;
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: running.stdout! }).on("line", (line) => {
      const match = /^TailLab is running at (\S+) \(ready in \d+ ms; Ctrl\+C stops it\)$/.exec(
        line,
      );
      if (match) resolve(match[1]!);
    });
    running.on("exit", (code) => reject(new Error(`the web host exited (${code}) before it ran`)));
  });
  const exited = new Promise<number | null>((resolve) => running.on("exit", resolve));
  let stderr = "";
  running.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { process: running, url, exited, stderr: () => stderr };
}

async function appInfo(url: string) {
  const token = new URL(url).searchParams.get("token");
  const answer = await fetch(new URL("/api/appInfo", url), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
  });
  return (await answer.json()) as { ok: boolean; result: { host: string; dataDir: string } };
}

describe("web host command", () => {
  it("prints its URL, serves the backend, keeps a private key file, and stops on SIGTERM", async () => {
    const host = start();
    const url = await host.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43}$/);
    expect(await appInfo(url)).toEqual({
      ok: true,
      result: expect.objectContaining({ host: "web", dataDir: join(folder, "data") }),
    });
    const keyFile = join(folder, "data", "secrets.key");
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    host.process.kill("SIGTERM");
    expect(await host.exited).toBe(0);
  });

  it("a replaced key file is said at start, naming it; the data folder and secrets are private", async () => {
    const dataDir = join(folder, "data");
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const first = start();
    const url = await first.url;
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const token = new URL(url).searchParams.get("token");
    const added = await fetch(new URL("/api/addEndpoint", url), {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        // A name with an escape sequence and a bidi override: said escaped, never obeyed.
        name: "Lab \u001b[31mMinIO\u202E",
        kind: "minio",
        url: "http://127.0.0.1:9000",
        credentials: { kind: "stored", accessKeyId: "minio" },
        secretAccessKey: "minio-secret",
      }),
    });
    expect(((await added.json()) as { ok: boolean }).ok).toBe(true);
    expect(statSync(join(dataDir, "secrets.json")).mode & 0o777).toBe(0o600);
    first.process.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const keyFile = join(dataDir, "secrets.key");
    writeFileSync(keyFile, randomBytes(32));
    const second = start();
    await second.url;
    // Written before the URL line, but on another pipe: it may arrive after it.
    await expect
      .poll(() => second.stderr())
      .toContain(
        `taillab web: warning: ${join(dataDir, "secrets.json")}: the saved secrets of endpoint "Lab \\u001B[31mMinIO\\u202E" cannot be decrypted with the key file ${keyFile}`,
      );
    expect(second.stderr()).not.toContain("\u001b");
    expect(second.stderr()).not.toContain("\u202e");
    second.process.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("uses TAILLAB_SECRETS_PASSPHRASE instead of a key file when it is set", async () => {
    const host = start({ TAILLAB_SECRETS_PASSPHRASE: "correct horse battery staple" });
    await host.url;
    expect(existsSync(join(folder, "data", "secrets.key"))).toBe(false);
    host.process.kill("SIGINT");
    expect(await host.exited).toBe(0);
  });

  it("a failed request with the token in its URL leaves the token out of the log", async () => {
    const host = start();
    const url = new URL(await host.url);
    const token = url.searchParams.get("token")!;
    // A call whose client goes away halfway through its body: the host logs the failure. The
    // server's "100 Continue" says it has the request in hand.
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.write(
      `POST /api/addEndpoint?token=${token} HTTP/1.1\r\nHost: ${url.host}\r\n` +
        `Authorization: Bearer ${token}\r\ncontent-type: application/json\r\n` +
        "expect: 100-continue\r\ncontent-length: 1000\r\n\r\n",
    );
    await new Promise((resolve) => socket.once("data", resolve));
    socket.write("{");
    socket.destroy();
    await expect.poll(() => host.stderr()).toMatch(/POST \/api\/addEndpoint: /);
    expect(host.stderr()).not.toContain(token);
    host.process.kill("SIGTERM");
    expect(await host.exited).toBe(0);
  });

  it("a flood of half-open connections without the token cannot lock the UI out", async () => {
    // More connections than the host has file descriptors: each sends half its headers and waits.
    const host = start({}, { maxOpenFiles: 256 });
    const url = new URL(await host.url);
    const flood = Array.from({ length: 600 }, () =>
      connect({ host: url.hostname, port: Number(url.port) }),
    );
    let droppedByHost = 0;
    let mostDropped: () => void = () => {};
    const mostOfTheFloodDropped = new Promise<void>((resolve) => (mostDropped = resolve));
    await Promise.all(
      flood.map(
        (socket) =>
          new Promise<void>((resolve) => {
            socket.on("error", () => {});
            socket.once("connect", () => {
              socket.write(`GET / HTTP/1.1\r\nHost: ${url.host}\r\n`);
              resolve();
            });
            socket.once("close", () => {
              droppedByHost += 1;
              if (droppedByHost >= flood.length - MAX_UNPROVEN_CONNECTIONS) mostDropped();
              resolve();
            });
          }),
      ),
    );
    // The UI's own requests, after the flood: the page, a call, then the page again by cookie.
    expect((await appInfo(url.href)).ok).toBe(true);
    const opened = await fetch(url, { redirect: "manual" });
    expect(opened.status).toBe(303);
    const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;
    expect((await fetch(new URL("/", url), { headers: { cookie } })).status).toBe(200);
    // The host dropped the oldest of the flood to make room: all but the newest few are gone.
    await mostOfTheFloodDropped;
    for (const socket of flood) socket.destroy();
    host.process.kill("SIGTERM");
    expect(await host.exited).toBe(0);
  });

  it("names a bad flag and exits with 2", () => {
    const result = spawnSync(process.execPath, [MAIN, "--port", "eighty"], { encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^taillab web: --port: expected a port number/);
  });
});
