/**
 * Command-line flags. s3bench's Go flags (-numClients 8) and TailLab's long forms (--clients 8)
 * are both accepted, with one or two dashes and `=value` or a separate value, as Go's flag
 * package does, so existing s3bench scripts run unchanged.
 */
import { englishOf, parseDuration, runSpecFieldDefault, type CodedMessage } from "@taillab/api";

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
  /** A flag that sets no run spec field: how the command reads it, and its default. */
  value?: FlagValue<unknown>;
}

/**
 * How a command reads a flag that sets no run spec field (flagValue), and the one default it
 * applies without it, which the help writes: neither can drift from the other.
 */
export interface FlagValue<T> {
  /** Applied when the flag is not given (nor its variable set); undefined: none. */
  default: T;
  /** The flag's text as the command takes it; a bad one throws a UsageError naming the flag. */
  parse(text: string, flag: string): T;
  /** How the default is written on the command line (default: as it is). */
  write?(value: T): string;
  /** An environment variable that stands in for the flag when it is not given. */
  variable?: string;
}

export interface SpecTarget {
  /** Dotted: `workload.totalBytes`; `endpoints.region` is each endpoint's. */
  field: string;
  /** The field's value from the flag's text (default: the text); a switch sets true. */
  convert?: (text: string) => unknown;
  /**
   * Fields the command places the value in instead, by the other flags given (`--duration`: a
   * mixed workload's), so that their errors name the flag too.
   */
  otherFields?: readonly string[];
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

/** A flag's help line: the names it answers to, what it does and its default. */
export function formatFlagHelp(definitions: readonly FlagDefinition[]): string {
  const rows = definitions.map((definition) => {
    const names = [definition.name, ...definition.aliases]
      .map((name) => (name.length > 1 && /^[a-z][a-z-]*$/.test(name) ? `--${name}` : `-${name}`))
      .join(", ");
    const shownDefault = flagDefault(definition);
    const variable = definition.value?.variable;
    const description =
      shownDefault === undefined
        ? definition.description
        : variable === undefined
          ? `${definition.description} (default ${shownDefault})`
          : `${definition.description} (default: $${variable}, else ${shownDefault})`;
    return [`${names}${definition.takesValue ? " VALUE" : ""}`, description];
  });
  const width = Math.max(...rows.map(([names]) => (names ?? "").length));
  return rows.map(([names, text]) => `  ${(names ?? "").padEnd(width)}  ${text}`).join("\n");
}

/**
 * A flag's default, written as the flag would take it (`60s`, `8MiB`, `p95`): the schema's for
 * the field it sets, else its value entry's; undefined for a switch or a flag with none.
 */
export function flagDefault(definition: FlagDefinition): string | undefined {
  if (!definition.takesValue) return undefined;
  if (definition.spec) {
    const value = runSpecFieldDefault(definition.spec.field);
    if (value === undefined) return undefined;
    const write = (definition.spec.writeDefault ?? String) as (value: unknown) => string;
    return write(value);
  }
  const value = definition.value;
  if (value === undefined || value.default === undefined) return undefined;
  const written = (value.write ?? String)(value.default);
  return written === "" ? undefined : written;
}

type ValueOf<Definition> = Definition extends { value: FlagValue<infer T> } ? T : never;

/**
 * A flag's value as its entry in `table` reads it: its text parsed, else its variable's, else its
 * default (the one the help shows).
 */
export function flagValue<Definition extends FlagDefinition, Name extends Definition["name"]>(
  table: readonly Definition[],
  flags: Partial<Record<string, string | true>>,
  name: Name,
  env: Record<string, string | undefined> = process.env,
): ValueOf<Extract<Definition, { name: Name }>> {
  const { value } = flagNamed(table, name);
  if (value === undefined) throw new Error(`--${name} has no value entry`);
  const given = flags[name];
  const text = typeof given === "string" ? given : value.variable && env[value.variable];
  const read = typeof text === "string" ? value.parse(text, name) : value.default;
  return read as ValueOf<Extract<Definition, { name: Name }>>;
}

/** The entry of `table` named `name` (a command may share another's). */
export function flagNamed<Definition extends FlagDefinition, Name extends Definition["name"]>(
  table: readonly Definition[],
  name: Name,
): Extract<Definition, { name: Name }> {
  const found = table.find((definition) => definition.name === name);
  if (found === undefined) throw new Error(`no flag --${name} in the table`);
  return found as Extract<Definition, { name: Name }>;
}

/** A default as a duration flag takes it: `5m`, `6h`, `30s`, `0ms`. */
export function writtenDuration(ms: number): string {
  const unit = DURATION_UNITS.find(([, unitMs]) => ms > 0 && ms % unitMs === 0);
  return unit ? `${ms / unit[1]}${unit[0]}` : `${ms}ms`;
}

const DURATION_UNITS = [
  ["h", 3_600_000],
  ["m", 60_000],
  ["s", 1000],
] as const;

/** A duration above zero (30s, 5m), in ms. */
export function positiveDurationMs(text: string, flag: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new UsageError(flag, parsed.reason);
  if (parsed.ms <= 0) throw new UsageError(flag, "must be longer than 0s");
  return parsed.ms;
}

/** A duration flag above zero, in ms. */
export function durationValue(defaultMs: number): FlagValue<number> {
  return { default: defaultMs, parse: positiveDurationMs, write: writtenDuration };
}

/** A duration flag above zero, in whole seconds (rounded up), as Kubernetes takes them. */
export function durationSecondsValue(defaultSeconds: number): FlagValue<number> {
  return {
    default: defaultSeconds,
    parse: (text, flag) => Math.ceil(positiveDurationMs(text, flag) / 1000),
    write: (seconds) => writtenDuration(seconds * 1000),
  };
}

/** A flag's text as it is. */
export function textValue<T extends string | undefined>(defaultText: T): FlagValue<string | T> {
  return { default: defaultText, parse: (text) => text };
}

/** One of a few words. */
export function choiceValue<T extends string>(
  choices: readonly T[],
  defaultChoice: T,
): FlagValue<T> {
  return {
    default: defaultChoice,
    parse: (text, flag) => {
      if ((choices as readonly string[]).includes(text)) return text as T;
      throw new UsageError(flag, `expected one of ${choices.join(", ")}, got "${text}"`);
    },
  };
}
