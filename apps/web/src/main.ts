#!/usr/bin/env node
/**
 * `node apps/web/src/main.ts`: TailLab in a browser. Starts the backend and the web host on
 * 127.0.0.1, prints the one URL (with this launch's token) that opens it, and stops both on
 * Ctrl+C or SIGTERM.
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createTailLabService, keyFileCipher, passphraseCipher } from "@taillab/backend";
import { visibleText } from "@taillab/core";
import { startWebHost } from "./web-host.ts";
import { parseWebOptions, WEB_HELP } from "./web-options.ts";

const EXIT_BAD_INPUT = 2;

async function main(argv: string[]): Promise<void> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(WEB_HELP);
    return;
  }
  let options;
  try {
    options = parseWebOptions(argv);
  } catch (error) {
    process.stderr.write(`taillab web: ${visibleText((error as Error).message)}\n\n${WEB_HELP}`);
    process.exitCode = EXIT_BAD_INPUT;
    return;
  }
  // The data folder holds the secrets key: readable by its owner only (the backend checks it).
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const passphrase = process.env.TAILLAB_SECRETS_PASSPHRASE;
  const service = await createTailLabService({
    host: "web",
    version: await appVersion(),
    dataDir: options.dataDir,
    resultsDir: options.resultsDir,
    secretCipher: passphrase
      ? passphraseCipher(passphrase, "TAILLAB_SECRETS_PASSPHRASE")
      : await keyFileCipher(join(options.dataDir, "secrets.key")),
    env: process.env,
  });
  // Warnings name endpoints, whose names may hold escape sequences a terminal would obey.
  for (const warning of service.warnings)
    process.stderr.write(`taillab web: warning: ${visibleText(warning)}\n`);
  const host = await startWebHost({ service, uiDir: options.uiDir, port: options.port });
  let stopping = false;
  const stop = () => {
    if (stopping) {
      process.stderr.write("taillab web: stopping now, without waiting\n");
      process.exit(130);
    }
    stopping = true;
    process.stderr.write("taillab web: stopping (Ctrl+C again to force)\n");
    // The host first, so no call reaches a service that is closing.
    host
      .close()
      .then(() => service.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`taillab web: while stopping: ${visibleText(String(error))}\n`);
          process.exit(1);
        },
      );
  };
  // Listening before the URL is out: whoever reads it may signal at once.
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // performance.now() counts from the process's start: the time to a usable page.
  process.stdout.write(
    `TailLab is running at ${host.url} (ready in ${Math.round(performance.now())} ms; Ctrl+C stops it)\n`,
  );
}

async function appVersion(): Promise<string> {
  const rootPackage = join(import.meta.dirname, "..", "..", "..", "package.json");
  return (JSON.parse(await readFile(rootPackage, "utf8")) as { version: string }).version;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`taillab web: ${visibleText(message)}\n`);
  process.exit(1);
});
