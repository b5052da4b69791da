/**
 * @module keeping-options
 * The host options of what it keeps and for how long: the data folder a lone host keeps what
 * people make in, and each kind of kept thing's time-to-live (uploads, published specimens,
 * snapshots, a room's log). Beside the data folder they configure; options.ts folds them into
 * the host's.
 */
export interface KeepingOptions {
  /** The folder a lone host keeps rooms and what people make in (made at start); null: memory only; unused with redis. @defaultValue null */
  dataDir?: string | null;
  /**
   * Bytes of computed results (rooms' layers) a lone host keeps in its data folder, so a restart
   * shows them without computing again; the least recently used go first. @defaultValue 10737418240 (10 GiB)
   */
  diskCacheMaxBytes?: number;
  /** Seconds an upload is kept after it was last stored. @defaultValue 3600 */
  uploadTtlSeconds?: number;
  /** Seconds a published specimen (PUT /api/specimens/{id}) is kept after it was last published. @defaultValue 86400 */
  publishedTtlSeconds?: number;
  /** Seconds a room's snapshot (`POST .../snapshots`) and its layers' bytes are kept, whatever the room does next. @defaultValue 2592000 */
  snapshotTtlSeconds?: number;
  /** Seconds a room's log keeps each entry (`GET /api/rooms/{room}/log`). @defaultValue 2592000 (30 days) */
  logTtlSeconds?: number;
}

export const KEEPING_DEFAULTS = {
  dataDir: null as string | null,
  diskCacheMaxBytes: 10 * 1024 ** 3,
  uploadTtlSeconds: 3600,
  publishedTtlSeconds: 86400,
  snapshotTtlSeconds: 2592000,
  logTtlSeconds: 2592000,
};
