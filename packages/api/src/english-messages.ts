/**
 * Every coded message in English, by code: i18next templates (`{{param}}`), so the UI uses them
 * as its English catalogue and translates the same codes. A code never changes meaning: a new
 * wording that needs other params is a new code.
 */
export const ENGLISH_MESSAGES = {
  // Terms that other messages nest: the units a count is of, the kinds a value has.
  unitClient: "client",
  unitClients: "clients",
  unitSample: "sample",
  unitSamples: "samples",
  unitObject: "object",
  unitObjects: "objects",
  unitPart: "part",
  unitParts: "parts",
  unitWorker: "worker",
  unitWorkers: "workers",
  unitReplica: "replica",
  unitReplicas: "replicas",
  unitPod: "pod",
  unitPods: "pods",
  unitSlot: "service slot",
  unitSlots: "service slots",
  kindWholeNumber: "a whole number",
  kindNumber: "a number",
  kindText: "text",
  kindBoolean: "true or false",
  kindList: "a list",
  kindObject: "an object",
  valueNull: "null",

  // Any field.
  required: "is required",
  expectedKind: "expected {{expected}}, got {{got}}",
  atLeast: "must be at least {{min}}",
  atMost: "must be at most {{max}}",
  above: "must be more than {{min}}",
  below: "must be less than {{max}}",
  textTooLong: "must be at most {{max}} characters",
  listTooShort: "needs at least {{min}} values",
  listTooLong: "takes at most {{max}} values",
  oneOf: "expected one of {{values}}",
  invalidValue: "invalid value",
  countNotWhole: "expected a whole number of {{units}}",
  countTooSmall: "expected at least 1 {{unit}}",
  countTooLarge: "expected at most {{max}} {{units}}",
  tooManyClients: "expected at most {{max}} clients (each is a connection)",
  atLeastOneValue: "expected at least one value",
  moreBadValues: "{{count}} more values are wrong in the same way or another",
  quoted: "“{{value}}”: {{problem}}",
  pointItem: "#{{index}}: {{problem}}",
  pointPart: "#{{index}} {{part}}: {{problem}}",
  termObjectSize: "objectSize",
  itemProblem: '"{{item}}" — {{problem}}',
  expectedExample: "{{problem}}; {{expected}}",
  unknownFieldNear: 'unknown field "{{field}}" - did you mean "{{nearest}}"?',
  unknownFieldKnown: 'unknown field "{{field}}" (known fields: {{known}})',
  problemAndMore: "{{problem}}; {{more}}",

  // Sizes, durations, rates, percentages as typed.
  sizeNotPositive: '"{{text}}" must be greater than 0 bytes',
  sizeNotSize:
    '"{{text}}" is not a size; expected a positive number of bytes with an optional unit, e.g. 1024, 32KiB, 1MiB, 4MB',
  sizeUnknownUnit:
    '"{{text}}" has an unknown unit "{{unit}}"; expected one of B, KiB, MiB, GiB, TiB, KB, MB, GB, TB',
  sizeNotWhole: '"{{text}}" is not a whole number of bytes',
  sizeAboveObjectLimit: "must be at most 5TiB (S3's largest object)",
  sizeAboveObjectLimitText: '"{{text}}" is larger than 5TiB, S3\'s largest object',
  sizeAbovePutLimit:
    "must be at most 5GiB (a single PUT's limit; a workload with multipart goes further)",
  durationExpected: "expected a duration like 30s, 500ms, 2m, 1.5s or 250us",
  durationNegative: '"{{text}}" is negative',
  durationNotDuration: '"{{text}}" is not a duration',
  durationUnitRequired: '"{{text}}" is not a duration (the unit is required)',
  durationUnknownUnit:
    '"{{text}}" has an unknown unit "{{unit}}"; expected one of us, ms, s, m (or min), h',
  durationNotNegative: "expected a duration of at least 0 ms",
  durationOutOfRange: "expected a duration from 1ms to {{maxMinutes}}min",
  rateExpected: "expected a rate like 500/s, 500 (per second) or 30/min",
  rateNegative: '"{{text}}" is negative',
  rateNotRate: '"{{text}}" is not a rate',
  rateUnknownUnit: '"{{text}}" has an unknown time unit "{{unit}}"; expected /s, /min or /h',
  rateNotPositive: '"{{text}}" must be greater than 0',
  rateAboveZero: "expected a rate above 0 requests per second",
  rateTooHigh: "expected at most {{max}} requests per second",
  hedgeDelayExpected: "expected a duration like 30ms or a percentile like p95",
  hedgeDelayBadPercentile: '"{{text}}" is not a percentile above p0 and below p100',
  hedgeDelayNotDelay: '"{{text}}" is not a hedge delay',
  budgetExpected: "expected a percentage like 5%",
  budgetNegative: '"{{text}}" is negative',
  budgetNotPercentage: '"{{text}}" is not a percentage',
  budgetSignRequired: '"{{text}}" is not a percentage (the % sign is required)',
  budgetAbove100: '"{{text}}" is more than 100%',
  percentageRange: "expected a percentage from 0 to 100",
  percentileLevel: "expected a percentile like p99 or 99.9, above 0 and below 100",
  durationAboveZero: "expected a duration above 0 ms, e.g. 2s",

  // A spec.
  urlShape: "expected an http:// or https:// URL with no path, e.g. http://127.0.0.1:9000",
  urlRequired: "is required, e.g. http://127.0.0.1:9000",
  keyPrefixSlash: "must not start or end with '/'",
  phasesNeedWrite: "must include write: read and cleanup work on the objects this run writes",
  opsExpected: "expected an operation mix such as get:70,put:30",
  tooManyPoints:
    "{{what}} make {{count}} run points; a run holds at most {{max}}: split the sweep into several runs",
  pointsWord: "points",
  sweepProduct: "clients × objectSize × samples",
  samplesBelowClients: "samples ({{samples}}) must be at least clients ({{clients}})",
  samplesBelowClientsEach:
    "samples ({{samples}}) must be at least clients ({{clients}}): every client needs a request",
  samplesOrDuration: "give samples or an open-loop duration, not both",
  untilStoppedNeedsWorkload: "needs a workload: a write phase that never ends would never be read",
  untilStoppedOrDuration: "give a duration or untilStopped, not both",
  untilStoppedNoSamples: "an open loop until stopped has no samples",
  untilStoppedNoPoints: "an open loop until stopped has no points",
  untilStoppedOnePoint: "an open loop until stopped runs one point",
  untilStoppedOnce: "an open loop until stopped runs once",
  untilStoppedNotSteady:
    "an open loop until stopped has no maximum to stop early from: give it a duration for untilSteady",
  multipartPartTooSmall: "must be at least 5MiB, S3's smallest part (the last part may be smaller)",
  shardsNeedEndpoint:
    "a distributed run needs an endpoint every shard can reach; the embedded testbed is each process's own",
  shardsNotUntilSteady:
    "a distributed run has one end for all its shards: run --until-steady on one machine",
  shardsNotUntilStopped:
    "a distributed run ends by itself: give the open loop samples or a duration, not until stopped",
  shardsTooFewClients:
    "{{clients}} clients cannot be shared by {{shards}} shards: give at least one client per shard",
  shardsTooFewSamples:
    "{{samples}} requests cannot be shared by {{shards}} shards: give at least one request per shard",
  shardsTooFewPrepared:
    "{{objects}} prepared objects cannot be shared by {{shards}} shards: give at least one per shard",
  shardsTooFewBytes:
    "{{bytes}} bytes cannot be shared by {{shards}} shards: give at least one byte per shard",

  // What this machine can hold.
  objectsNeedMemory:
    "objects of {{size}} need {{needed}} of memory ({{held}}); this machine has {{memory}}",
  objectsNeedMemoryWithTestbed:
    "objects of {{size}} need {{needed}} of memory ({{held}}, and {{kept}} of objects the embedded testbed keeps in memory); this machine has {{memory}}: keep the objects on disk (taillab testbed --dir FOLDER, then --endpoint its URL) or use a real server",
  memoryHeldLargest: "the largest object",
  memoryHeldLargestAndCopy: "the largest object, and a stamped copy for the client's PUT",
  memoryHeldLargestAndCopies:
    "the largest object, and a stamped copy for each of {{copies}} clients' PUTs",
  clientsNeedFiles:
    "{{clients}} clients need about {{files}} open files here ({{connections}} connections, plus {{base}}), but this process may open {{limit}} (ulimit -n); use at most {{most}} clients, or raise the limit (ulimit -Hn)",
  clientsNeedFilesWithTestbed:
    "{{clients}} clients need about {{files}} open files here ({{connections}} connections and the embedded testbed's end of each, in this process, plus {{base}}), but this process may open {{limit}} (ulimit -n); use at most {{most}} clients, run the testbed apart (taillab testbed) and give its endpoint, or raise the limit (ulimit -Hn)",
  clientsNeedPorts:
    "{{clients}} clients need {{connections}} connections to each server, but this machine has {{ports}} local ports for them (net.ipv4.ip_local_port_range); use at most {{most}} clients per server, or add replicas",
  clientsNeedMemory:
    "{{clients}} clients need about {{needed}} of memory for their connections ({{each}} each), but {{free}} is free; use fewer clients",

  // An endpoint's answers.
  atEndpoint: "endpoint {{url}}: {{problem}}",
  connectNoAnswer: "cannot connect (no answer within {{seconds}} s)",
  callNoAnswer: "{{doing}}: no answer within {{seconds}} s ({{code}})",
  cannotConnect: "cannot connect ({{code}})",
  cannotConnectTls:
    "cannot connect ({{code}}); for a lab server's own certificate, trust its CA (--ca-file) or skip the check (--insecure)",
  bucketMissing: 'bucket "{{bucket}}" does not exist ({{code}}); create it or pass --create-bucket',
  bucketTaken:
    'bucket "{{bucket}}" already exists and belongs to another account ({{code}}); choose another bucket name',
  anonymousRejected: "anonymous access was rejected ({{code}})",
  keyRejected: "the access key was rejected ({{code}})",
  callFailed: "{{doing}} failed ({{code}}, HTTP {{status}})",
  callFailedRegion:
    '{{doing}} failed ({{code}}, HTTP {{status}}); check the region (now "{{region}}")',
  doingListBucket: 'listing bucket "{{bucket}}"',
  doingCreateBucket: 'creating bucket "{{bucket}}"',
  doingListUploads: 'listing the open uploads of bucket "{{bucket}}"',
  doingListBuckets: "listing the buckets",
  listingRepeats:
    "{{doing}}: the server's listing went back to a page it had already given, after {{pages}} pages; stopped there ({{code}})",
  listingTooLong:
    "{{doing}}: the listing had not ended after {{pages}} pages or {{seconds}} s; stopped there ({{code}})",
  doingTestPut: 'a test PUT to bucket "{{bucket}}"',
  doingReadBack: "reading back a test object",
  doingTestHead: "a HEAD of a test object",
  doingTestDelete: "deleting the test object {{key}}",

  // A connection test's verdict and its checks.
  labelled: "{{label}}: {{text}}",
  embeddedTestbedAt: "embedded testbed ({{url}})",
  notTried: "not tried: an earlier check failed",
  serverAnswered: "the server answered (HTTP {{status}})",
  anonymousAccepted: "anonymous (unsigned) requests are accepted",
  keyAccepted: "the access key is accepted",
  keyAcceptedNoListBuckets:
    "the access key is accepted (ListBuckets answered {{code}}, and a run does not need it)",
  bucketAnswers: 'bucket "{{bucket}}" answers',
  probeWorked: "PUT, GET, HEAD and DELETE of a {{kib}} KiB test object worked",
  endpointReady:
    'ready — the keys are accepted and bucket "{{bucket}}" can be written and read (PUT {{put}} ms, GET {{get}} ms)',
  unknownKeyId: "the server does not know the access key id ({{code}}) — check the access key id",
  secretRejected: "the server rejected the secret key ({{code}}) — check the secret access key",
  tokenRefused: "the session token was refused ({{code}}) — get fresh credentials",
  tokenExpired: "the session token has expired ({{code}}) — get fresh credentials",
  tokenRefresh: "the session token must be refreshed ({{code}}) — get fresh credentials",
  securityRefused: "the server refused the security credentials ({{code}}) — check the keys",
  anonymousRefused:
    'anonymous requests are refused on bucket "{{bucket}}" (AccessDenied) — give the endpoint access keys',
  bucketDoesNotExist:
    'bucket "{{bucket}}" does not exist (NoSuchBucket) — create it, or choose a bucket that exists',
  bucketNotListable:
    'the keys are accepted but may not list bucket "{{bucket}}" (AccessDenied) — check the bucket name and the keys\' permissions',
  bucketNotWritable:
    'the keys may list bucket "{{bucket}}" but not write to it (AccessDenied) — a run needs to write its test objects',
  contentMismatch:
    "a test object came back with other bytes than were written (ContentMismatch) — the server or a proxy changes data",
  nothingAnswers: "nothing answers (connection refused) — is the server running on that port?",
  hostUnresolved: "the host name does not resolve ({{code}}) — check the URL",
  hostUnresolvedVirtual:
    "the host name does not resolve ({{code}}) — check the URL; virtual-host addressing also needs {{bucket}}.<host> to resolve, else choose path addressing",
  noAnswerWithin:
    "no answer within {{seconds}} s — check the URL, and that no firewall is in the way",
  closedWithoutAnswer:
    "the connection was closed without an answer ({{code}}) — is it an S3 server, and is http:// or https:// right?",
  tlsFailed: "TLS failed ({{code}}) — check http:// against https://, and the server's certificate",
  cannotConnectCheckUrl: "cannot connect ({{code}}) — check the URL",
  noAnswerCheckUrl: "cannot connect (no answer) — check the URL",

  // Thresholds (core's threshold.ts).
  thresholdUnreadable:
    'threshold "{{text}}": expected [OPERATION] FIGURE COMPARISON VALUE, e.g. GET p99.9<50ms, PUT ops/s>800, errors<0.1%, client-bound=false',
  thresholdOperation:
    'threshold "{{text}}": unknown operation "{{operation}}"; expected one of {{operations}}',
  thresholdFigure:
    'threshold "{{text}}": unknown figure "{{figure}}"; expected p25, p50, p75, p90, p99, p99.9, p99.99, max, mean, ops/s, MB/s, errors or client-bound',
  thresholdTime:
    'threshold "{{text}}": expected a time such as 50ms, 1.5s or 800us, got "{{value}}"',
  thresholdNumber: 'threshold "{{text}}": expected a number, got "{{value}}"',
  thresholdErrors:
    'threshold "{{text}}": expected a count or a percentage of requests such as 0.1%, got "{{value}}"',
  thresholdBoolean: 'threshold "{{text}}": expected client-bound=true or client-bound=false',
  thresholdWholeInterval:
    'threshold "{{text}}": @ci (the whole 95 % interval) applies to a percentile only, e.g. GET p99.9<50ms@ci',

  // Workload texts.
  weightNotPositive: 'weight "{{text}}" must be greater than 0',
  weightNotNumber: 'weight "{{text}}" is not a number; expected a positive number like 70',
  mixEmpty:
    "the operation mix is empty; expected operations with weights, e.g. get:70,put:20,delete:5,list:5",
  mixEmptyItem: "has an empty item; e.g. get:70,put:20,delete:5,list:5",
  mixMissingWeight:
    "{{problem}}; give every operation a weight, e.g. get:70,put:20,delete:5,list:5",
  mixNoWeight: "has no weight while others do",
  mixUnknownOperation: 'unknown operation "{{name}}"; expected one of {{operations}}',
  mixTwice: '"{{name}}" appears twice; give each operation once',
  sizesExpected:
    "expected a size (32KiB), a list (4KiB,64KiB,1MiB), uniform:MIN:MAX, lognormal:MIN:MAX or histogram:SIZE=WEIGHT,…",
  sizesEmpty: "the object size is empty",
  sizesNone: "expected at least one size, e.g. 8KiB, 16KiB",
  sizesEmptyItem: "has an empty item",
  sizesUnknownKind: 'unknown size distribution "{{kind}}"',
  sizesBounds: "expected {{kind}}:MIN:MAX with two sizes, e.g. {{kind}}:64KiB:4MiB",
  sizesLowerBound: "lower bound {{problem}}",
  sizesUpperBound: "upper bound {{problem}}",
  sizesBoundsOrder:
    "the lower bound must be below the upper bound (for one size, write just the size)",
  sizesHistogramItem: "expected SIZE=WEIGHT, e.g. histogram:4KiB=50,64KiB=30,1MiB=20",
  sizesTwice: 'the size appears twice in "{{text}}"; give each size once',
  keysUnknown: "unknown key choice; expected uniform, sequential or zipf:EXPONENT (e.g. zipf:1.1)",
  keysZipfExponent: "zipf needs an exponent, e.g. zipf:1.1",
  keysZipfRange:
    "the zipf exponent must be a number above 0 and at most {{max}} (0.99 is YCSB's, 1.1 a common hot set)",
  rangeExpected:
    "expected fixed:OFFSET:LENGTH (e.g. fixed:0:1MiB) or random:LENGTH[:ALIGN] (e.g. random:1MiB or random:64KiB:4KiB)",
  rangeUnknown:
    "unknown range choice; expected fixed:OFFSET:LENGTH (e.g. fixed:0:1MiB) or random:LENGTH[:ALIGN] (e.g. random:1MiB or random:64KiB:4KiB)",
  rangeOffset: "offset {{problem}}",
  rangeLength: "length {{problem}}",
  rangeAlignment: "alignment {{problem}}",

  // The embedded testbed's setup and the live lab's knobs.
  profileUnknown: 'unknown latency profile "{{name}}"; expected one of {{names}}',
  profileExpected: "expected a builtin profile name ({{names}}) or a profile object",
  replicaMissing:
    "replica {{replica}} does not exist: there are {{replicas}} replicas (0 is the first)",
  replicaMissingOnlyOne: "replica {{replica}} does not exist: there is 1 replica (0 is the first)",
  wholeNumberExpected: "expected a whole number",
  seedRange: "expected a whole number from 0 to 4294967295",
  millisecondsExpected: "expected a number of milliseconds",
  notNegative: "must not be negative",
  millisecondsAtMost: "must be at most {{max}} ms",
  fractionRange: "must be from 0 to 1 (0.01 is 1 %)",
  numberRange: "expected a number from {{min}} to {{max}}",
  serviceTimeExpected:
    'expected an object such as { "kind": "lognormal", "medianMs": 5, "sigma": 0.25 }',
  serviceTimeKind: 'expected "none", "fixed", "exponential" or "lognormal"',
  replicaIndexRange: "expected a replica index from 0 (the first) to {{max}}",
  slowdownFactorRange: "must be from 1 to 1000 (10 is ten times slower)",
  slowWindowLonger: "forMs must be at most everyMs: the slow window is part of each period",
  errorRatesSum: "slowDownRate + resetRate must be at most 1",
  profileField: "latency profile field “{{field}}”: {{problem}}",

  // Names, buckets, credentials, endpoints.
  bucketLength: '"{{name}}" has {{length}} characters; a bucket name has 3 to 63',
  bucketCharacters: '"{{name}}" may hold only lowercase letters, digits, dots and hyphens',
  bucketEnds: '"{{name}}" must start and end with a letter or digit',
  bucketTwoDots: '"{{name}}" must not have two dots in a row',
  bucketDotHyphen: '"{{name}}" must not have a dot next to a hyphen',
  bucketIpShaped: '"{{name}}" must not be shaped like an IP address',
  bucketReservedPrefix: '"{{name}}" must not start with "{{prefix}}" (reserved by S3)',
  bucketReservedSuffix: '"{{name}}" must not end with "{{suffix}}" (reserved by S3)',
  variableReserved:
    '"{{name}}" is one of TailLab\'s own variables, not a credential; name a variable such as AWS_{{ending}}',
  variableNotCredential:
    '"{{name}}" is not a credential variable: expected AWS_{{ending}} or another <PREFIX>_{{ending}} (upper-case letters, digits and underscores)',
  virtualHostOnIp:
    'virtual-host addressing needs a host name, and {{host}} is an IP address (the bucket would be asked for as "<bucket>.{{host}}"); use path addressing, or a name for the server',
  tlsOnlyHttps: "is for https:// endpoints; {{origin}} does not use TLS",
  caFileOrInsecure: "give a CA file to trust or insecure (no verification), not both",
  secretRequired: "is required for stored credentials (it is kept encrypted, never shown again)",
  endpointNameTaken: 'an endpoint named "{{name}}" exists',
  testbedStaysTestbed:
    "the embedded testbed stays a testbed (the built-in experiments run on it); add a new endpoint for another server",
  testbedNotRemovable: "the embedded testbed cannot be removed: the built-in experiments run on it",
  noSavedEndpoint: 'no saved endpoint with id "{{id}}"',
  replicaIsTestbed:
    'endpoint "{{name}}" is the embedded testbed, which has no URL to send to: expected an endpoint with a URL (the testbed\'s own replicas are set in its testbed setup)',
  replicasOfTestbed:
    "the experiment runs on the embedded testbed: expected an endpoint with a URL to add replicas to (the testbed's own replicas are set in its testbed setup)",
  replicaRepeated:
    'endpoint "{{name}}" is already one of the run\'s servers: expected each endpoint once',
  replicaBucket:
    'endpoint "{{name}}" serves bucket "{{bucket}}": expected "{{expected}}", the bucket of the experiment\'s endpoint (replicas hold the same objects)',
  builtInIsFixed:
    "built-in experiments cannot be changed; save a copy (without experimentId) and change that",
  noSavedExperiment: 'no saved experiment with id "{{id}}"',
  endpointsFromExperiment: "comes from the experiment's endpoint; remove it from the spec",
  caFileUnreadable: "cannot read {{file}} ({{code}})",
  caFileNotPem: "{{file}} holds no PEM certificate (expected -----BEGIN CERTIFICATE-----)",
  kubeconfigMissing: "no file at {{file}}",
  namespaceInvalid:
    "\"{{name}}\" is not a namespace name: lower-case letters, digits and '-', starting and ending with a letter or digit",
  imageInvalid: '"{{image}}" is not an image reference such as registry/taillab:0.1.0',
  podSettingInvalid: '"{{value}}" is not in the expected form, e.g. {{example}}',
  spreadInvalid: '"{{value}}" is not one of prefer, require, none',
  credentialPlaceholder:
    "{{name}} holds the printed manifest's placeholder {{value}}: fill in the Secret's values before applying it",
  noCredentials: "no credentials: set {{names}} (or pass -accessKey and -accessSecret)",
  noKeychainEntry: 'no keychain entry "{{id}}"',
  noSavedSecret: "no secret access key is saved — edit the endpoint and enter it",
  variablesUnset:
    "environment variables {{one}} and {{two}} are not set — set them where TailLab starts, or save the keys with the endpoint",
  variableUnset:
    "environment variable {{name}} is not set — set it where TailLab starts, or save the keys with the endpoint",
  endpointSays: 'endpoint "{{name}}": {{problem}}',
  testbedMakesBucket: "the embedded testbed creates its bucket itself when it starts",
  chooseEndpoint: "choose an endpoint",
  chooseMode: "choose at least one mode",
  chooseRun: "choose at least one run",
} as const;
