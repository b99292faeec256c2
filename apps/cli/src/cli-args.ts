/**
 * Command-line flags. s3bench's Go flags (-numClients 8) and TailLab's long forms (--clients 8)
 * are both accepted, with one or two dashes and `=value` or a separate value, as Go's flag
 * package does, so existing s3bench scripts run unchanged.
 */
import { englishOf, runSpecFieldDefault, type CodedMessage } from "@taillab/api";

export interface FlagDefinition<Name extends string = string> {
  name: Name;
  aliases: readonly string[];
  takesValue: boolean;
  /** What the flag does; its default is not written here but read from the spec's schema. */
  description: string;
  /** May be given several times: every value is kept, in order, in `repeated`. */
  repeatable?: true;
  /** The run spec field the flag sets: where its value goes, its default, its errors' name. */
  spec?: SpecTarget;
}

export interface SpecTarget {
  /** Dotted: `workload.totalBytes`; `endpoints.region` is each endpoint's. */
  field: string;
  /** The field's value from the flag's text (default: the text); a switch sets true. */
  convert?: (text: string) => unknown;
  /** How the schema's default is written on the command line (default: as it is). */
  writeDefault?: (value: never) => string;
  /** Placed by the command itself, as where it goes depends on other flags. */
  placedByCommand?: true;
}

export class UsageError extends Error {
  readonly field: string;

  /** A coded message is said in English: the CLI's language. */
  constructor(field: string, message: string | CodedMessage) {
    super(typeof message === "string" ? message : englishOf(message));
    this.name = "UsageError";
    this.field = field;
  }
}

export type ParsedFlags<Name extends string> = Partial<Record<Name, string | true>>;

/** Flags only: a stray word is an error. */
export function parseFlags<Name extends string>(
  argv: readonly string[],
  definitions: readonly FlagDefinition<Name>[],
): ParsedFlags<Name> {
  return parseFlagsAsWritten(argv, definitions).flags;
}

/**
 * Flags only, each as it was written (see parseArguments), and every value of the repeatable
 * ones.
 */
export function parseFlagsAsWritten<Name extends string>(
  argv: readonly string[],
  definitions: readonly FlagDefinition<Name>[],
): { flags: ParsedFlags<Name>; written: string[]; repeated: Partial<Record<Name, string[]>> } {
  const { flags, positionals, written, repeated } = parseArguments(argv, definitions);
  const [stray] = positionals;
  if (stray !== undefined) {
    throw new UsageError("arguments", `unexpected "${stray}": this command takes flags only`);
  }
  return { flags, written, repeated };
}

/**
 * Flags anywhere, and the other words in order (run ids, file paths); `written`: each flag as
 * it was written, dashes and case kept (`-numClients`), as what follows may depend on it. A flag
 * given twice keeps its last value in `flags`; a repeatable one keeps all of them in `repeated`.
 */
export function parseArguments<Name extends string>(
  argv: readonly string[],
  definitions: readonly FlagDefinition<Name>[],
): {
  flags: ParsedFlags<Name>;
  positionals: string[];
  written: string[];
  repeated: Partial<Record<Name, string[]>>;
} {
  const byAlias = new Map<string, FlagDefinition<Name>>();
  for (const definition of definitions) {
    for (const alias of [definition.name, ...definition.aliases]) {
      byAlias.set(alias.toLowerCase(), definition);
    }
  }
  const flags: ParsedFlags<Name> = {};
  const positionals: string[] = [];
  const written: string[] = [];
  const repeated: Partial<Record<Name, string[]>> = {};
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    const match = /^(--?)([A-Za-z][\w-]*)(?:=(.*))?$/s.exec(argument);
    if (!match) {
      positionals.push(argument);
      continue;
    }
    const [, dashes = "", name = "", inlineValue] = match;
    const definition = byAlias.get(name.toLowerCase());
    if (!definition) throw new UsageError(argument, `unknown flag "${argument}"`);
    written.push(`${dashes}${name}`);
    if (!definition.takesValue) {
      // The values Go's flag package takes for a bool (strconv.ParseBool).
      if (inlineValue !== undefined && !/^(true|false|t|f|1|0)$/i.test(inlineValue)) {
        throw new UsageError(argument, `"${argument}" takes no value`);
      }
      if (!/^(false|f|0)$/i.test(inlineValue ?? "")) flags[definition.name] = true;
      continue;
    }
    const value = inlineValue ?? argv[index + 1];
    if (value === undefined) throw new UsageError(argument, `"${argument}" needs a value`);
    if (inlineValue === undefined) index += 1;
    flags[definition.name] = value;
    if (definition.repeatable)
      repeated[definition.name] = [...(repeated[definition.name] ?? []), value];
  }
  return { flags, positionals, written, repeated };
}

/**
 * `1,4,8` → [1, 4, 8], `8` → 8, `1e6` → 1000000: a list only when several values are given, so
 * an error names `clients`, not `clients[0]`. Items that are not numbers stay text so validation
 * can name them.
 */
export function numberList(text: string): number | string | (number | string)[] {
  return singleOrList(
    textItems(text).map((item) =>
      /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(item) ? Number(item) : item,
    ),
  );
}

export function textList(text: string): string | string[] {
  return singleOrList(textItems(text));
}

function textItems(text: string): string[] {
  return text.split(",").map((item) => item.trim());
}

function singleOrList<T>(items: T[]): T | T[] {
  return items.length === 1 ? (items[0] as T) : items;
}

/** A flag's help line: the names it answers to, what it does and the spec's default. */
export function formatFlagHelp(definitions: readonly FlagDefinition[]): string {
  const rows = definitions.map((definition) => {
    const names = [definition.name, ...definition.aliases]
      .map((name) => (name.length > 1 && /^[a-z][a-z-]*$/.test(name) ? `--${name}` : `-${name}`))
      .join(", ");
    const shownDefault = flagDefault(definition);
    const description =
      shownDefault === undefined
        ? definition.description
        : `${definition.description} (default ${shownDefault})`;
    return [`${names}${definition.takesValue ? " VALUE" : ""}`, description];
  });
  const width = Math.max(...rows.map(([names]) => (names ?? "").length));
  return rows.map(([names, text]) => `  ${(names ?? "").padEnd(width)}  ${text}`).join("\n");
}

/**
 * The default of the field a flag sets, written as the flag would take it (`60s`, `8MiB`, `p95`);
 * undefined for a switch or a field with none.
 */
export function flagDefault(definition: FlagDefinition): string | undefined {
  if (!definition.spec || !definition.takesValue) return undefined;
  const value = runSpecFieldDefault(definition.spec.field);
  if (value === undefined) return undefined;
  const write = (definition.spec.writeDefault ?? String) as (value: unknown) => string;
  return write(value);
}
