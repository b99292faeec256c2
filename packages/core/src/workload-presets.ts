import { englishOf } from "@taillab/api";
import { fixedTotalPoints } from "./sweep.ts";
import {
  parseSizeDistribution,
  formatSizeDistribution,
  scaleSizeDistribution,
} from "./size-distribution.ts";

/**
 * Ready-made workloads. Five are the typical applications of the cloud-storage testing paper in
 * the course notes (document backup, file sharing, software backup, video surveillance, photo
 * album): mixed workloads over a prepared set of objects. Two are the labs' own sweeps, as
 * lists of run points.
 */
export const PRESET_NAMES = [
  "document-backup",
  "file-sharing",
  "software-backup",
  "video-surveillance",
  "photo-album",
  "size-sweep",
  "concurrency-sweep",
] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * A mixed workload, in the text a user would write: `objectSize` for parseSizeDistribution,
 * `ops` for parseOperationMix, `keys` for parseKeyChoice. `prepareObjects` objects are written
 * before the measured requests; `requests` is the number of measured requests, shared by
 * `clients` concurrent clients.
 */
export interface MixedWorkloadPreset {
  kind: "mixed";
  name: PresetName;
  description: string;
  objectSize: string;
  ops: string;
  keys: string;
  prepareObjects: number;
  requests: number;
  clients: number;
}

/** One run of a sweep: the scalar `clients`, `samples` and `objectSize` of a run spec. */
export interface PresetSweepPoint {
  clients: number;
  samples: number;
  objectSize: string;
}

/**
 * A sweep as its list of points. A spec's list-valued fields expand as a cartesian product,
 * which cannot say "512 of 8 KiB … 2 of 2 MiB": samples and size move together here.
 */
export interface SweepWorkloadPreset {
  kind: "sweep";
  name: PresetName;
  description: string;
  points: PresetSweepPoint[];
}

export type WorkloadPreset = MixedWorkloadPreset | SweepWorkloadPreset;

/**
 * At scale 1, the paper's object sizes. Its ranges are spread lognormally (median at the
 * geometric middle), because file sizes are; a uniform spread over 1 MB–1 GB would make most
 * objects hundreds of MB. Mixes, key choices and counts are ours: the paper gives the read/write
 * character ("write-few read-many"), not ratios. Photo sizes (1–10 MB, phone pictures) are ours
 * too; the paper gives none. Objects above 5 GiB cannot be sent in one PUT, so the presets whose
 * objects reach GB write with multipart uploads.
 */
const MIXED_PRESETS = {
  "document-backup": {
    kind: "mixed",
    name: "document-backup",
    description:
      "Document backup: 4 MB documents, write-few read-many, each request one object (uniform keys)",
    objectSize: "4MB",
    ops: "get:90,put:10",
    keys: "uniform",
    prepareObjects: 1000,
    requests: 10_000,
    clients: 8,
  },
  "file-sharing": {
    kind: "mixed",
    name: "file-sharing",
    description:
      "File sharing: 1 MB–1 GB files, write-many read-many, the whole set shared with popular files hot (Zipf keys)",
    objectSize: "lognormal:1MB:1GB",
    ops: "get:50,put:40,delete:5,list:5",
    keys: "zipf:1.1",
    prepareObjects: 1000,
    requests: 10_000,
    clients: 16,
  },
  "software-backup": {
    kind: "mixed",
    name: "software-backup",
    description: "Software backup: 100 MB–10 GB images, write-few read-many, multipart uploads",
    objectSize: "lognormal:100MB:10GB",
    ops: "get:90,multipart:10",
    keys: "uniform",
    prepareObjects: 50,
    requests: 500,
    clients: 4,
  },
  "video-surveillance": {
    kind: "mixed",
    name: "video-surveillance",
    description:
      "Video surveillance: 500 MB–5 GB recordings, write-many read-few, oldest deleted first (sequential keys)",
    objectSize: "lognormal:500MB:5GB",
    ops: "multipart:80,get:15,delete:5",
    keys: "sequential",
    prepareObjects: 50,
    requests: 500,
    clients: 8,
  },
  "photo-album": {
    kind: "mixed",
    name: "photo-album",
    description:
      "Photo album: 1–10 MB photos, read-mostly with listing and metadata reads, recent photos hot (Zipf keys)",
    objectSize: "lognormal:1MB:10MB",
    ops: "get:70,put:20,head:5,list:3,delete:2",
    keys: "zipf:1.1",
    prepareObjects: 2000,
    requests: 20_000,
    clients: 16,
  },
} satisfies Record<string, MixedWorkloadPreset>;

const KiB = 1024;

/** The labs' sizes: 8 KiB, 16 KiB … 2 MiB. */
const SIZE_SWEEP_SIZES_BYTES = Array.from({ length: 9 }, (_, index) => 8 * KiB * 2 ** index);
const SIZE_SWEEP_TOTAL_BYTES = 4 * KiB * KiB;
const CONCURRENCY_SWEEP_CLIENTS = Array.from({ length: 10 }, (_, index) => 5 * (index + 1));
const CONCURRENCY_SWEEP_SAMPLES = 1000;

const SWEEP_PRESETS = {
  "size-sweep": {
    kind: "sweep",
    name: "size-sweep",
    description:
      "Object size sweep at a fixed 4 MiB total: 512 × 8 KiB, 256 × 16 KiB … 2 × 2 MiB, one client",
    // One client, as latency against size is the point: with more, queueing mixes in.
    points: fixedTotalPoints(SIZE_SWEEP_TOTAL_BYTES, SIZE_SWEEP_SIZES_BYTES, 1).map((point) => ({
      clients: point.clients,
      samples: point.samples,
      objectSize: formatSizeDistribution({ kind: "fixed", sizeBytes: point.objectSizeBytes }),
    })),
  },
  "concurrency-sweep": {
    kind: "sweep",
    name: "concurrency-sweep",
    description: `Concurrency sweep: 5, 10 … 50 clients, ${CONCURRENCY_SWEEP_SAMPLES} requests of 64 KiB each`,
    points: CONCURRENCY_SWEEP_CLIENTS.map((clients) => ({
      clients,
      samples: CONCURRENCY_SWEEP_SAMPLES,
      objectSize: "64KiB",
    })),
  },
} satisfies Record<string, SweepWorkloadPreset>;

const PRESETS: Record<PresetName, WorkloadPreset> = { ...MIXED_PRESETS, ...SWEEP_PRESETS };

/** Scaled sizes never go below this, so every request still carries a payload worth timing. */
export const PRESET_MIN_SIZE_BYTES = KiB;

export function isPresetName(text: string): text is PresetName {
  return (PRESET_NAMES as readonly string[]).includes(text);
}

/** Every preset with its one-line description, in a stable order. */
export function listPresets(): {
  name: PresetName;
  kind: WorkloadPreset["kind"];
  description: string;
}[] {
  return PRESET_NAMES.map((name) => {
    const preset = expandPreset(name);
    return { name, kind: preset.kind, description: preset.description };
  });
}

/**
 * A preset at `scale` (0 < scale ≤ 1), to fit a laptop.
 *
 * Scale shrinks bytes, not counts: every object size (fixed sizes and distribution bounds) is
 * multiplied by `scale`, rounded to whole bytes and kept at 1 KiB or more, while prepared
 * objects, requests and clients stay. Disk use and run time follow the bytes, so they shrink
 * with the scale; tail percentiles need the same number of requests at any scale (a p99 from
 * 100 requests is one request), and the concurrency is part of the application. Document backup
 * at scale 0.01 writes 40 KB objects.
 *
 * The lab sweeps are laptop-sized already (4 MiB per point, 64 KiB objects): they are the labs'
 * exact configurations, and scale does not change them.
 */
export function expandPreset(name: string, scale = 1): WorkloadPreset {
  if (!isPresetName(name)) {
    throw new RangeError(`unknown preset "${name}"; expected one of ${PRESET_NAMES.join(", ")}`);
  }
  if (!(scale > 0 && scale <= 1)) {
    throw new RangeError(`scale must be above 0 and at most 1, got ${scale}`);
  }
  const preset = PRESETS[name];
  if (preset.kind === "sweep") {
    return { ...preset, points: preset.points.map((point) => ({ ...point })) };
  }
  const size = parseSizeDistribution(preset.objectSize);
  if (!size.ok) throw new Error(`preset ${name}: ${englishOf(size.reason)}`);
  const scaled = scaleSizeDistribution(size.value, scale, PRESET_MIN_SIZE_BYTES);
  return { ...preset, objectSize: formatSizeDistribution(scaled) };
}
