import { listPresets } from "@taillab/core";
import { formatTable } from "@taillab/report";
import { formatFlagHelp, parseFlags } from "./cli-args.ts";
import { EXIT } from "./exit-codes.ts";
import { printOut } from "./terminal-output.ts";

export const PRESETS_FLAGS = [
  { name: "help", aliases: ["h"], takesValue: false, description: "show this help" },
] as const;

export const PRESETS_HELP = `Usage: taillab presets

Lists the workload presets: the cloud-testing paper's typical applications and the labs' own
sweeps. Run one with taillab run --preset NAME [--scale 0.01] (flags override it).

${formatFlagHelp(PRESETS_FLAGS)}
`;

export async function presetsCommand(argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, PRESETS_FLAGS);
  if (flags.help) {
    printOut(PRESETS_HELP);
    return EXIT.ok;
  }
  const rows = listPresets().map((preset) => [preset.name, preset.kind, preset.description]);
  printOut(formatTable([["name", "kind", "description"], ...rows], "left"));
  return EXIT.ok;
}
