import { readFile } from "node:fs/promises";
import {
  BUILTIN_PROFILE_NAMES,
  bucketNameProblem,
  BUILTIN_PROFILES,
  isBuiltinProfileName,
  MAX_TESTBED_REPLICAS,
  TestbedSetupSchema,
  type TestbedSetup,
} from "@taillab/api";
import { startTestbedServer } from "@taillab/backend";
import {
  flagValue,
  formatFlagHelp,
  parseFlags,
  textValue,
  UsageError,
  type FlagDefinition,
  type FlagValue,
} from "./cli-args.ts";
import { EXIT } from "./exit-codes.ts";
import { checkPathFlag } from "./path-flags.ts";
import { printOut } from "./terminal-output.ts";

/** --port: the first replica's; 0 lets the system choose free ports. */
const PORT: FlagValue<number> = {
  default: 0,
  parse: (text, flag) => {
    const port = Number(text);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new UsageError(flag, `expected a port number from 0 to 65535, got "${text}"`);
    }
    return port;
  },
};

/** Its replicas, profile and seed are a run spec's `testbed` section, with the same defaults. */
export const TESTBED_FLAGS = [
  {
    name: "host",
    aliases: [],
    takesValue: true,
    description: "address to listen on",
    value: textValue("127.0.0.1"),
  },
  {
    name: "port",
    aliases: [],
    takesValue: true,
    description: "port of the first replica, the others follow; 0: free ports",
    value: PORT,
  },
  {
    name: "replicas",
    aliases: [],
    takesValue: true,
    description: `servers on as many ports sharing one store, 1 to ${MAX_TESTBED_REPLICAS}`,
    spec: { field: "testbed.replicas", placedByCommand: true },
  },
  {
    name: "profile",
    aliases: [],
    takesValue: true,
    description: `latency profile per replica: ${BUILTIN_PROFILE_NAMES.join(", ")}, or a JSON file`,
    spec: { field: "testbed.profile", placedByCommand: true },
  },
  {
    name: "seed",
    aliases: [],
    takesValue: true,
    description: "seed of the profile's random delays, for repeatable runs",
    spec: { field: "testbed.seed", placedByCommand: true },
  },
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
] as const satisfies readonly FlagDefinition[];

export const TESTBED_HELP = `Usage: taillab testbed [flags]

Serves the embedded S3 testbed until interrupted and prints each replica's URL on its own
line, the first replica's first.

${formatFlagHelp(TESTBED_FLAGS)}

Profiles shape object requests (PUT, GET, HEAD and DELETE of a key); bucket requests such as a
run's preflight listing are never slowed or failed. Every response carries
x-taillab-service-time-us, the time the testbed spent on it.

${BUILTIN_PROFILE_NAMES.map((name) => `  ${name.padEnd(18)}${BUILTIN_PROFILES[name].description ?? ""}`).join("\n")}
`;

const PROFILE_FILE = /[\\/]|\.json$/i;

/** --profile: a builtin name stays a name; a path is read as a JSON profile object. */
async function readProfileFlag(value: string | undefined): Promise<unknown> {
  if (value === undefined || isBuiltinProfileName(value)) return value;
  if (!PROFILE_FILE.test(value)) {
    throw new UsageError(
      "profile",
      `unknown profile "${value}"; expected one of ${BUILTIN_PROFILE_NAMES.join(", ")}, or the path of a JSON file holding a profile`,
    );
  }
  let text: string;
  try {
    text = await readFile(value, "utf8");
  } catch (error) {
    throw new UsageError(
      "profile",
      `cannot read the profile file "${value}" (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(
      "profile",
      `the profile file "${value}" is not JSON: ${(error as Error).message}`,
    );
  }
}

function wholeNumberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) {
    throw new UsageError(name, `expected a whole number, got "${value}"`);
  }
  return Number(value);
}

async function readSetup(
  replicas: string | undefined,
  profile: string | undefined,
  seed: string | undefined,
): Promise<TestbedSetup> {
  const parsed = TestbedSetupSchema.safeParse({
    replicas: wholeNumberFlag("replicas", replicas),
    profile: await readProfileFlag(profile),
    seed: wholeNumberFlag("seed", seed),
  });
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const [field = "profile", ...inside] = issue?.path.map(String) ?? [];
  const where = field === "profile" && profile !== undefined ? ` (in ${profile})` : "";
  throw new UsageError(
    field,
    `${inside.length > 0 ? `${inside.join(".")}: ` : ""}${issue?.message ?? "invalid"}${where}`,
  );
}

export async function testbedCommand(argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, TESTBED_FLAGS);
  if (flags.help) {
    printOut(TESTBED_HELP);
    return EXIT.ok;
  }
  const text = (name: keyof typeof flags) =>
    typeof flags[name] === "string" ? (flags[name] as string) : undefined;
  const port = flagValue(TESTBED_FLAGS, flags, "port");
  const accessKeyId = text("access-key");
  const secretAccessKey = text("secret-key");
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new UsageError("access-key", "give both --access-key and --secret-key, or neither");
  }
  const setup = await readSetup(text("replicas"), text("profile"), text("seed"));
  if (port !== 0 && port + setup.replicas - 1 > 65535) {
    throw new UsageError("port", `${setup.replicas} replicas from port ${port} would pass 65535`);
  }
  const buckets = text("bucket")?.split(",") ?? [];
  for (const bucket of buckets) {
    const problem = bucketNameProblem(bucket);
    if (problem !== null) throw new UsageError("bucket", problem);
  }
  const directory = text("dir");
  if (directory !== undefined) await checkPathFlag("dir", directory, "folder");
  const testbed = await startTestbedServer({
    host: flagValue(TESTBED_FLAGS, flags, "host"),
    port,
    store: directory ? { kind: "directory", path: directory } : { kind: "memory" },
    buckets,
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
    replicas: setup.replicas,
    profile: setup.profile,
    seed: setup.seed,
  }).catch((error: unknown) => {
    // A port another server holds is the user's to change, not a crash.
    const message = error instanceof Error ? error.message : String(error);
    const taken = /^testbed: (cannot listen on .*)$/.exec(message);
    throw taken?.[1] ? new UsageError("port", taken[1]) : error;
  });
  printOut(testbed.urls.map((url) => `${url}\n`).join(""));
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await testbed.close();
  return EXIT.ok;
}
