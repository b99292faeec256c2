import { readFile, stat } from "node:fs/promises";
import { text } from "node:stream/consumers";
import { UsageError, type ParsedFlags } from "./cli-args.ts";

/** `--secret-file PATH`: the secret key from a file, never on the command line. */
export const SECRET_FILE_FLAG = {
  name: "secret-file",
  aliases: [],
  takesValue: true,
  description:
    "read the secret key from this file (readable by you only), not from the command line",
} as const;

/** `--secret-key -` (`-accessSecret -`): the secret key from standard input. */
const FROM_STDIN = "-";

/**
 * Where the secret key comes from, settled before the command uses its flags: a file
 * (--secret-file), standard input (`--secret-key -`), or the command line, which works as
 * s3bench's did but is said once to be visible to every user of the machine (ps) while the
 * command runs. Sets flags["secret-key"] to the key itself, and answers the warning lines to
 * print once the rest of the input is accepted (bad input gets its one line only).
 */
export async function readSecretKeyFlag(
  flags: ParsedFlags<"secret-key" | "secret-file">,
  command: string,
): Promise<string> {
  const given = flags["secret-key"];
  const file = flags["secret-file"];
  if (typeof file === "string") {
    if (given !== undefined) {
      throw new UsageError("secret-file", "give --secret-file or --secret-key, not both");
    }
    const { key, warning } = await readSecretFile(file, command);
    flags["secret-key"] = key;
    return warning;
  }
  if (given === FROM_STDIN) {
    flags["secret-key"] = withoutLineEnd(await text(process.stdin));
    if (flags["secret-key"] === "") {
      throw new UsageError("secret-key", "standard input held no secret key (-accessSecret -)");
    }
    return "";
  }
  if (typeof given !== "string") return "";
  return `taillab ${command}: warning: a secret key on the command line is visible to every user of this machine (ps) while the command runs; give --secret-file PATH or -accessSecret - (standard input)\n`;
}

async function readSecretFile(
  path: string,
  command: string,
): Promise<{ key: string; warning: string }> {
  let key: string;
  let mode: number;
  try {
    key = withoutLineEnd(await readFile(path, "utf8"));
    mode = (await stat(path)).mode;
  } catch (error) {
    throw new UsageError("secret-file", `cannot read ${path}: ${(error as Error).message}`);
  }
  if (key === "") throw new UsageError("secret-file", `${path} is empty: expected a secret key`);
  if ((mode & 0o077) === 0) return { key, warning: "" };
  const octal = (mode & 0o777).toString(8).padStart(4, "0");
  return {
    key,
    warning: `taillab ${command}: warning: ${path} can be read by other users (mode ${octal}): chmod 600 ${path}\n`,
  };
}

/** A key written with echo or an editor ends with a newline that is not part of it. */
function withoutLineEnd(value: string): string {
  return value.replace(/\r?\n$/, "");
}
