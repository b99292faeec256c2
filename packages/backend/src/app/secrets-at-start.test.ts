import { createCipheriv, randomBytes, scryptSync } from "node:crypto";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { passphraseCipher } from "./secret-cipher.ts";
import { startAppClient } from "./test-support/app-client.ts";

/** The data folder as a start finds it: its modes, an older TailLab's secrets, a changed key. */

let dataDir: string;
beforeEach(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), "taillab-secrets-start-")), "data");
});
afterEach(async () => {
  await rm(join(dataDir, ".."), { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
const secretsFile = () => join(dataDir, "secrets.json");
const storedEndpoint = {
  name: "Lab MinIO",
  kind: "minio" as const,
  url: "http://127.0.0.1:9000",
  credentials: { kind: "stored" as const, accessKeyId: "minio" },
  secretAccessKey: "minio-secret",
};

describe("secrets at start", () => {
  it("secrets.json is written 0600, and a 0755 folder and 0644 secrets.json are made private at start", async () => {
    const first = await startAppClient({ dataDir });
    await first.api.addEndpoint(storedEndpoint);
    await first.close();
    expect(await modeOf(secretsFile())).toBe(0o600);
    expect(await modeOf(dataDir)).toBe(0o700);

    await chmod(dataDir, 0o755);
    await chmod(secretsFile(), 0o644);
    const again = await startAppClient({ dataDir });
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(secretsFile())).toBe(0o600);
    expect(again.service.warnings).toEqual([]);
    await again.close();
  });

  it("a secret sealed at Node's default scrypt cost opens, and is sealed again at the new cost", async () => {
    const first = await startAppClient({ dataDir });
    const saved = await first.api.addEndpoint(storedEndpoint);
    await first.close();
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", scryptSync("test passphrase", salt, 32), iv);
    const body = Buffer.concat([cipher.update("old-secret", "utf8"), cipher.final()]);
    const old = Buffer.concat([Buffer.of(1), salt, iv, body, cipher.getAuthTag()]);
    await writeFile(
      secretsFile(),
      JSON.stringify({ schemaVersion: 1, secrets: { [saved.id]: old.toString("base64") } }),
    );

    const again = await startAppClient({ dataDir });
    expect(again.service.warnings).toEqual([]);
    const resealed = JSON.parse(await readFile(secretsFile(), "utf8")).secrets[saved.id];
    const bytes = Buffer.from(resealed, "base64");
    expect(bytes[0]).toBe(2);
    expect(passphraseCipher("test passphrase").decrypt(bytes)).toBe("old-secret");
    expect(await modeOf(secretsFile())).toBe(0o600);
    await again.close();
  });

  it("a changed passphrase is said at start, naming it and the endpoints whose secrets it cannot open", async () => {
    const first = await startAppClient({ dataDir, secretCipher: passphraseCipher("one") });
    await first.api.addEndpoint(storedEndpoint);
    await first.close();
    const before = await readFile(secretsFile(), "utf8");

    const changed = await startAppClient({
      dataDir,
      secretCipher: passphraseCipher("two", "TAILLAB_SECRETS_PASSPHRASE"),
    });
    expect(changed.service.warnings).toEqual([
      expect.stringMatching(
        /secrets\.json: the saved secrets of endpoint "Lab MinIO" cannot be decrypted with TAILLAB_SECRETS_PASSPHRASE, which is not the key they were saved with/,
      ),
    ]);
    // Kept as they were, in case the old passphrase comes back.
    expect(await readFile(secretsFile(), "utf8")).toBe(before);
    await changed.close();
  });
});
