/**
 * @module redis-keys
 * Every key and channel a Redis service uses, in one place (docs/scaling.md lists what each
 * holds and for how long). All start with `vitrine:` so one Redis can host other data too.
 * One schema for every concept rather than one per store: the Lua scripts build keys from the
 * same prefixes, and a new store's keys read beside every other's, so two concepts cannot
 * take one prefix unseen. A store adds its keys here and names them only through `KEYS`.
 */
import { createHash } from 'node:crypto';

const P = 'vitrine:';

export const KEYS = {
  /** HASH: a room's one entry (key, hash, meta, fn, state, created, hits); the cache TTL. */
  room: (roomId: string) => `${P}room:${roomId}`,
  /** ZSET: room id → expiry (ms), for stats and clear. */
  rooms: `${P}rooms`,
  /** STRING: the computation id running these values in this room; single flight. */
  flight: (roomId: string, key: string) => `${P}flight:${createHash('sha1').update(roomId).update('\0').update(key).digest('hex')}`,
  /** HASH: one computation (status, error, code, seq, refs, cancel, result meta, what it runs). */
  comp: (cid: string) => `${P}comp:${cid}`,
  /** STREAM: a computation's progress; entry id `<seq>-1`. */
  log: (cid: string) => `${P}comp:${cid}:log`,
  /** HASH: host id → requests of that host waiting on a computation (they count while the host's heartbeat lives). */
  compWaiters: (cid: string) => `${P}comp:${cid}:waiters`,
  /** SET: the API jobs following a computation. */
  compJobs: (cid: string) => `${P}comp:${cid}:jobs`,
  /** HASH: one API job (comp, fn, room, specimen; status/error/meta when it differs from its computation's). */
  job: (id: string) => `${P}job:${id}`,
  /** STRING: a result's header (JSON) by content hash; its bytes are `blobChunk` keys. */
  blob: (hash: string) => `${P}blob:${hash}`,
  blobChunk: (hash: string, index: number) => `${P}blob:${hash}:${index}`,
  /** ZSET: host id → expiry (ms) of its last heartbeat (every host, computing or not). */
  hosts: `${P}hosts`,
  /** STRING: an upload's blob ref, type and size (JSON); the upload's time-to-live. */
  upload: (id: string) => `${P}upload:${id}`,
  /** ZSET: compute node id → expiry (ms) of its last heartbeat. */
  nodes: `${P}nodes`,
  /** SET: the functions a compute node can run. */
  nodeFunctions: (nodeId: string) => `${P}node:${nodeId}:fns`,
  /** The BullMQ queue's name (BullMQ adds its own `bull:` prefix). */
  queue: 'vitrine-compute',
  /** The BullMQ queue of computations expected to be short: a lane of their own, never behind long ones. */
  shortQueue: 'vitrine-compute-short',
  /** The BullMQ queue of relayed functions' computations, taken by relay hosts only. */
  relayQueue: 'vitrine-relay',
  /** LIST: a function's last run times (ms) on any compute node, newest first; a day's time-to-live. */
  runs: (fn: string) => `${P}runs:${fn}`,
  /** STRING: set while a first run of a function no node has timed yet goes by the short lane. */
  runTrial: (fn: string) => `${P}runs:${fn}:trial`,
  /** HASH: published specimen id → its record (JSON: catalog fields, file name, hash, size, expiry). */
  published: `${P}published`,
  /** STRING: a published specimen's file bytes, by id and content hash; the published time-to-live. */
  publishedFile: (id: string, sha: string) => `${P}published:${id}:${sha}`,
  /** STRING: a counter moved by every publish and delete: hosts re-read the list when it moves. */
  publishedVersion: `${P}published:version`,
  /** HASH: remote specimen id → its record (JSON: the reference NAME/path, level, channel, t, role, catalog fields). */
  remoteSpecimens: `${P}remote-specimens`,
  /** STRING: a counter moved by every remote publish and delete: hosts re-read the list when it moves. */
  remoteSpecimensVersion: `${P}remote-specimens:version`,
  /** STRING: a room's view (JSON: window, colormap, opacity, mode, camera). */
  roomView: (roomId: string) => `${P}view:${roomId}`,
  /** STRING: the static specimen a room shows (JSON), when that is newer than its cache entry. */
  roomShown: (roomId: string) => `${P}shown:${roomId}`,
  /** HASH: a room's scene (`v` its version, `json` the whole scene); 30 days after its last change. */
  roomScene: (roomId: string) => `${P}scene:${roomId}`,
  /** STRING: a snapshot (JSON: its document's canonical JSON, when it was taken, its blobs); `--snapshot-ttl`. */
  snapshot: (id: string) => `${P}snapshot:${id}`,
  /** HASH: worker id → its registration as its relay shared it (JSON: relay node id, specimens, functions). */
  relayWorkers: `${P}relay:workers`,
  /** HASH: a room's annotations, id → the annotation (JSON, as the API answers it); kept until removed. */
  annotations: (roomId: string) => `${P}ann:${roomId}`,
  /** HASH: a room's annotation `version` and `next` id (ids are never reused); kept for good. */
  annotationMeta: (roomId: string) => `${P}annmeta:${roomId}`,
  /** LIST: a labels layer's edits in version order (each its room log entry's JSON); kept until removed. */
  layerEdits: (roomId: string, layerId: string) => `${P}edits:${layerId}:${roomId}`,
  /** ZSET: a room's log, seq → the entry (JSON); `--log-ttl` after its last append, older entries dropped. */
  roomLog: (roomId: string) => `${P}log:${roomId}`,
  /** HASH: a room's log head (`seq` the newest, `ts` its time); as long as the log. */
  roomLogHead: (roomId: string) => `${P}loghead:${roomId}`,
  /** HASH: a room's roster, peer id → the peer (JSON, with its expiry); each host refreshes its own. */
  roomPresence: (roomId: string) => `${P}presence:${roomId}`,
  /** STRING: a user's record (JSON: name, admin, its token's SHA-256, created); kept until removed. */
  user: (name: string) => `${P}user:${name}`,
  /** STRING: the same record by its token's SHA-256, what a request's token is looked up by. */
  userToken: (tokenHash: string) => `${P}usertoken:${tokenHash}`,
  /** STRING: a room's access (JSON: owner, editors, viewers, public); absent while the room is open. */
  roomAccess: (roomId: string) => `${P}access:${roomId}`,
  /** SET: the plugins that have versions shared by the service's hosts. */
  sharedPlugins: `${P}versions`,
  /** ZSET: a plugin's shared bundle ids → when each was first offered (`sharedClock`); its newest `--plugin-versions` stay. */
  sharedVersions: (plugin: string) => `${P}versions:${plugin}`,
  /** STRING: a counter that orders the offers of shared plugin versions. */
  sharedClock: `${P}versionclock`,
  /** STRING: a shared bundle's files, packed (versions/shared-bundles.ts); kept while its version is. */
  sharedBundle: (bundleId: string) => `${P}bundle:${bundleId}`,
  /** STRING: the blob ref (JSON) of a kept level set, by its name (meshes/kept-level-sets.ts); the service's results' longest life. */
  meshLevels: (name: string) => `${P}meshlevels:${name}`,
  /** STRING: the blob ref (JSON) of bytes read from a remote, by their cache key (remote/blob-remote-cache.ts); the service's results' longest life. */
  remoteRead: (key: string) => `${P}remoteread:${key}`,
  /** STRING: a one-time event stream ticket (JSON: who it stands for); a minute's time-to-live. */
  ticket: (id: string) => `${P}ticket:${id}`,
  /** STRING: a room's last agent socket client id given (INCR; ids are never given twice); kept for good. */
  agentIds: (roomId: string) => `${P}agentids:${roomId}`,
  /** STRING: the id of the host holding a room's agent conversation; a lease of a few seconds its holder renews (agent-scripts.ts). */
  agentOwner: (roomId: string) => `${P}agentowner:${roomId}`,
} as const;

export const CHANNELS = {
  /** `{room, event, data}`: room events for every host's subscribers. */
  room: `${P}events:room`,
  /** A computation or job id that may have changed (progress, end, cancel). */
  nudge: `${P}events:nudge`,
  /** A computation id whose run must stop. */
  cancel: `${P}events:cancel`,
  /** A room id whose entry changed or went (`*`: every room): hosts drop their copy of its pointer. */
  pointer: `${P}events:pointer`,
  /** A room id whose access changed: hosts drop what they hold of it. */
  access: `${P}events:access`,
  /** A relayed worker id whose registration changed or went: hosts re-read it. */
  relay: `${P}events:relay`,
  /** A user's name, published as `vitrine users remove` (or any host) removes the user: hosts end what it kept open. */
  users: `${P}events:users`,
  /** `{room, peer, pose}`: live poses for every host's peers of the room. */
  live: `${P}events:live`,
  /** Agent frames for one host (the holder of a room's conversation, or a host with sockets in it). */
  agentHost: (hostId: string) => `${P}events:agent:${hostId}`,
} as const;
