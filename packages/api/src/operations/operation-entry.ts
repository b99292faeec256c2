/** How an operation is named to a person: in the app's compact places and in the HTML report. */
export interface OperationLabels {
  /** Tables, tabs and chart legends in the app. */
  app: string;
  /** The HTML report, which has room to say more (`LIST (one page)`). */
  report: string;
}

/**
 * Where a planned request's object comes from: one of the workload's prepared objects (a read
 * never misses), a key no request has used yet (a write makes a new object), or one of the new
 * keys handed out so far, written yet or not (S3 answers a delete 204 either way).
 */
export type KeySource = "prepared" | "new" | "written";

/** What a mixed workload's planner draws for one request of an operation, in this order. */
export interface MixPlanning {
  /** A second object the request reads from besides its key (a server-side copy's source). */
  source: KeySource | null;
  /** The object at the request's key; null when it names none (lists, bucket operations). */
  key: KeySource | null;
  /** Whose size the request moves (it sets the hedge-delay class): its key's, its source's or none. */
  sizedBy: "key" | "source" | null;
  /** The workload's byte range, if it has one, applies to it. */
  ranged: boolean;
  /** It makes or removes a bucket of its own: the worker's next bucket of the phase. */
  bucket: boolean;
}

/**
 * Everything the clients, the app and the report say about one S3 operation, kept in that
 * operation's own module so that a new operation is one module and one line in the registry.
 */
export interface OperationEntry {
  /** The name in records and summaries (the results store keeps its code). */
  name: string;
  /** What a workload's mix calls it (`delete-objects`); null when a mix cannot draw it. */
  mixWord: string | null;
  /** How a mix plans a request of it; null exactly when mixWord is. */
  mixPlanning: MixPlanning | null;
  /** Its success leaves an object at its key (a new one: the run cleans it up after). */
  writesObject: boolean;
  /**
   * A second copy of it is harmless, so a request mode may send it as a backup: the same bytes
   * to the same key leave the same object whichever lands last; a second delete or bucket change
   * does not.
   */
  backupsHarmless: boolean;
  /** The operation its parts are summarised as, beside the whole (MULTIPART's); null if none. */
  partOperation: string | null;
  /**
   * What a run of it may leave on the server besides objects, for the cleanup to remove: the
   * buckets it makes, or the uploads it leaves open when cut short; null for nothing.
   */
  leavesBehind: "buckets" | "uploads" | null;
  /** S3's own verb (PUT, GET…), shown as it is in compact tags in every language. */
  shownAsVerb: boolean;
  /** The word s3bench prints for it (`GET` → `Read`). */
  s3benchWord: string;
  labels: { en: OperationLabels; zh: OperationLabels };
}
