/** Buckets per chunk: 10 s of STEADY_BUCKET_MS buckets. */
const CHUNK_BUCKETS = 1024;

/**
 * Answered requests and their bytes per steady bucket (STEADY_BUCKET_MS of answers by their
 * end), kept whole because the window they are summed over, where all clients were busy, is only
 * known once the phase ends. Chunks of 1 024 buckets, two numbers a bucket: 16 bytes a bucket,
 * 6 MB for an hour of answers, where a Map of pairs took 73 (25 MB); a bucket far from
 * the others (a repetition later in the run) costs one chunk, not the gap.
 */
export class SteadyBuckets {
  private readonly chunks = new Map<number, Float64Array>();

  add(bucket: number, answers: number, bytes: number): void {
    const chunkIndex = Math.floor(bucket / CHUNK_BUCKETS);
    let chunk = this.chunks.get(chunkIndex);
    if (!chunk) {
      chunk = new Float64Array(2 * CHUNK_BUCKETS);
      this.chunks.set(chunkIndex, chunk);
    }
    const at = 2 * (bucket - chunkIndex * CHUNK_BUCKETS);
    chunk[at] = (chunk[at] as number) + answers;
    chunk[at + 1] = (chunk[at + 1] as number) + bytes;
  }

  /** Answers and bytes of the buckets from `fromBucket` up to, not including, `toBucket`. */
  sum(fromBucket: number, toBucket: number): { answers: number; bytes: number } {
    let answers = 0;
    let bytes = 0;
    for (const [chunkIndex, chunk] of this.chunks) {
      const first = chunkIndex * CHUNK_BUCKETS;
      const from = Math.max(fromBucket, first);
      const to = Math.min(toBucket, first + CHUNK_BUCKETS);
      for (let bucket = from; bucket < to; bucket += 1) {
        const at = 2 * (bucket - first);
        answers += chunk[at] as number;
        bytes += chunk[at + 1] as number;
      }
    }
    return { answers, bytes };
  }

  /**
   * The longest run of buckets without an answer from `fromBucket` up to, not including,
   * `toBucket`: how long nothing completed (a closed loop's clients all waiting on a frozen server).
   */
  longestSilence(fromBucket: number, toBucket: number): number {
    let longest = 0;
    let run = 0;
    for (let bucket = fromBucket; bucket < toBucket; bucket += 1) {
      const chunkIndex = Math.floor(bucket / CHUNK_BUCKETS);
      const chunk = this.chunks.get(chunkIndex);
      const answers = chunk ? (chunk[2 * (bucket - chunkIndex * CHUNK_BUCKETS)] as number) : 0;
      run = answers > 0 ? 0 : run + 1;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  /** bucket, answers, bytes, … of each bucket with an answer, lowest first (a delta's `steady`). */
  flattened(): number[] {
    const values: number[] = [];
    for (const chunkIndex of [...this.chunks.keys()].sort((a, b) => a - b)) {
      const chunk = this.chunks.get(chunkIndex) as Float64Array;
      for (let offset = 0; offset < CHUNK_BUCKETS; offset += 1) {
        const answers = chunk[2 * offset] as number;
        if (answers > 0) {
          values.push(
            chunkIndex * CHUNK_BUCKETS + offset,
            answers,
            chunk[2 * offset + 1] as number,
          );
        }
      }
    }
    return values;
  }

  clear(): void {
    this.chunks.clear();
  }
}
