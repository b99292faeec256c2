import { startTestbedServer } from "@taillab/backend";
import { formatFlagHelp, parseFlags, UsageError } from "./cli-args.ts";
import { EXIT } from "./exit-codes.ts";

const TESTBED_FLAGS = [
  {
    name: "host",
    aliases: [],
    takesValue: true,
    description: "address to listen on (default 127.0.0.1)",
  },
  { name: "port", aliases: [], takesValue: true, description: "port (default 0: a free port)" },
  {
    name: "dir",
    aliases: [],
    takesValue: true,
    description: "keep objects in this directory (default: memory)",
  },
  {
    name: "bucket",
    aliases: [],
    takesValue: true,
    description: "buckets to create at start, comma-separated",
  },
  {
    name: "access-key",
    aliases: [],
    takesValue: true,
    description: "require SigV4 with this access key id",
  },
  { name: "secret-key", aliases: [], takesValue: true, description: "…and this secret key" },
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const;

export const TESTBED_HELP = `Usage: taillab testbed [flags]

Serves the embedded S3 testbed until interrupted and prints its URL on the first line.

${formatFlagHelp(TESTBED_FLAGS)}
`;

export async function testbedCommand(argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, TESTBED_FLAGS);
  if (flags.help) {
    process.stdout.write(TESTBED_HELP);
    return EXIT.ok;
  }
  const text = (name: keyof typeof flags) =>
    typeof flags[name] === "string" ? (flags[name] as string) : undefined;
  const port = text("port") === undefined ? 0 : Number(text("port"));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError("port", `expected a port number from 0 to 65535, got "${text("port")}"`);
  }
  const accessKeyId = text("access-key");
  const secretAccessKey = text("secret-key");
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new UsageError("access-key", "give both --access-key and --secret-key, or neither");
  }
  const directory = text("dir");
  const testbed = await startTestbedServer({
    host: text("host") ?? "127.0.0.1",
    port,
    store: directory ? { kind: "directory", path: directory } : { kind: "memory" },
    buckets: text("bucket")?.split(",") ?? [],
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  });
  process.stdout.write(`${testbed.url}\n`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await testbed.close();
  return EXIT.ok;
}
