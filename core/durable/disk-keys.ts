/**
 * @module disk-keys
 * Every database of a data folder's store and the shape of its keys, in one place (as
 * redis/redis-keys.ts is for a Redis service; docs/data.md says what each holds and for how
 * long). A disk store names its database and builds its keys only through `DISK`, so two stores
 * cannot take one database unseen, and a new store adds its database here. Every database
 * named here is opened with the store, before any write: one first opened inside a write that
 * then failed would go with that write.
 */

/**
 * The folder of a data folder in which a lone host keeps the plugin versions it serves side by
 * side (one folder per bundle id, and the index of which each plugin keeps): the host writes
 * it, and `vitrine backup` copies it with the rest.
 */
export const BUNDLES_DIR = 'bundles';

/** A key of the store: LMDB orders arrays element by element, so keys that share a head lie together. */
export type DiskKey = string | (string | number)[];

export const DISK = {
  /** `format` → the store's format record (store-format.ts). */
  meta: { name: 'meta', format: 'format' },
  /** `[room, 'view']` → the room's view; `[room, 'shown']` → the static specimen it shows, with its expiry. */
  rooms: { name: 'rooms', view: (roomId: string): DiskKey => [roomId, 'view'], shown: (roomId: string): DiskKey => [roomId, 'shown'] },
  /** room → the room's scene. */
  scenes: { name: 'scenes' },
  /** `[room, 'm']` → the room's version, next id and count; `[room, 'a', id]` → one mark. */
  annotations: {
    name: 'annotations',
    room: (roomId: string): DiskKey => [roomId, 'm'],
    mark: (roomId: string, id: string): DiskKey => [roomId, 'a', id],
    /** The range of a room's marks. */
    marks: (roomId: string) => ({ start: [roomId, 'a'], end: [roomId, 'b'] }),
  },
  /** `[room, layer, version]` → a labels layer's edit (its room log entry), versions from 1. */
  edits: {
    name: 'edits',
    edit: (roomId: string, layerId: string, version: number): DiskKey => [roomId, layerId, version],
    /** The range of a layer's edits after `version`. */
    after: (roomId: string, layerId: string, version: number) => ({ start: [roomId, layerId, version + 1], end: [roomId, layerId, Number.MAX_SAFE_INTEGER] }),
  },
  /** room → the ids an import under way holds hidden in it. */
  annotationImports: { name: 'annotation-imports' },
  /** `[room, seq]` → an entry of the room's log; a room's entries lie together, oldest first. */
  log: {
    name: 'log',
    entry: (roomId: string, seq: number): DiskKey => [roomId, seq],
    /** The range of a room's entries with a seq from `from` up to (not with) `to`. */
    entries: (roomId: string, from: number, to: number) => ({ start: [roomId, from], end: [roomId, to] }),
  },
  /** room → the room log's last seq, its ts, and the ts of its oldest entry kept. */
  logHeads: { name: 'loghead' },
  /** snapshot id → its record and expiry. */
  snapshots: { name: 'snapshots' },
  /** `['s', id]` → a published specimen's record; `['v']` → a counter moved by every change. */
  published: {
    name: 'published',
    specimen: (id: string): DiskKey => ['s', id],
    all: { start: ['s'] as DiskKey, end: ['t'] as DiskKey },
    version: ['v'] as DiskKey,
  },
  /** `['s', id]` → a remote specimen's record (its reference, never bytes); `['v']` → a counter moved by every change. */
  remoteSpecimens: {
    name: 'remote-specimens',
    specimen: (id: string): DiskKey => ['s', id],
    all: { start: ['s'] as DiskKey, end: ['t'] as DiskKey },
    version: ['v'] as DiskKey,
  },
  /** upload id → its record. */
  uploads: { name: 'uploads' },
  /** content hash → a kept result's header and expiry (its bytes in the folder of bytes). */
  blobs: { name: 'blobs' },
  /** content hash → a computed result kept across restarts, its size and last use. */
  kept: { name: 'kept' },
  /** `<cache slot>\0<key>` → the content hash of the result kept for that slot and key. */
  keptSlots: { name: 'kept-slots', slot: (slotId: string, key: string) => `${slotId}\u0000${key}` },
  /** room → its access (absent while the room is open). */
  access: { name: 'access' },
  /** room → the next client id of its agent sockets (ids are never given twice, not after a restart). */
  agentIds: { name: 'agentids' },
  /** `user:<name>` and `token:<sha256>` → a user's record, twice. */
  users: {
    name: 'users',
    byName: (name: string) => `user:${name}`,
    byToken: (tokenHash: string) => `token:${tokenHash}`,
    names: { start: 'user:', end: 'user:\uffff' },
  },
} as const;

/** The name of every database of the store. */
export const DISK_DATABASES: readonly string[] = Object.values(DISK).map((database) => database.name);
