/**
 * @module published-record
 * A published specimen as every host of a service knows it: its catalog fields, its file
 * (name, content hash, size), when it goes, and a volume's geometry. What turns it into a
 * catalog record (the file it was written to on this host) is published-specimens.ts.
 */
import type { ResultType } from '../sdk/result-types.ts';
import type { LabelFields } from '../results/label-fields.ts';
import type { VolumeFieldsInput } from '../results/volume-fields-input.ts';

/** A published specimen's record, with a `.npy` volume's length unit, time and channels when given (checked against its shape). */
export interface PublishedMeta extends VolumeFieldsInput {
  id: string;
  display_name: string;
  description: string;
  tags: string[];
  /** What the file parses as. */
  type: ResultType;
  /** The file's name as served (`Content-Disposition`), its extension deciding how it is read. */
  file_name: string;
  /** sha256 of the file's bytes, hex. */
  sha: string;
  bytes: number;
  /** Milliseconds since the epoch. */
  published_at: number;
  expires_at: number;
  /** A `.npy` volume's voxel size and position, when given. */
  spacing?: number[];
  origin?: number[];
  /** Published with `role=labels`: a segmentation, with its names and colours. */
  labels?: LabelFields;
  /** Published for a room's layer: the catalog lists it only to a request naming that room. */
  room?: string;
  /**
   * Who published it (the user the host took the request for), with what client (its
   * User-Agent), and what the publisher says made it (`source`); absent in records written
   * before the host kept it.
   */
  by?: { user: string; client: string | null; source: string | null };
}

/** Where published specimens are shared between the hosts of a service (a Redis service). */
export interface PublishedShare {
  /** Changes with every publish and delete on any host. */
  version(): Promise<string>;
  /** Every published specimen not yet expired. */
  list(): Promise<PublishedMeta[]>;
  /** The file of `meta`, or null when it is gone. */
  read(meta: PublishedMeta): Promise<Buffer | null>;
  /** Stores `meta` and its file; true when it replaced a published specimen of that id. */
  put(meta: PublishedMeta, bytes: Buffer): Promise<boolean>;
  /** Removes the published specimen `id`; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Keeps the published specimen `meta.id` (the same file) until `meta.expires_at`. */
  renew(meta: PublishedMeta): Promise<void>;
  /**
   * True where the host alone keeps its specimens (a lone host's data folder): records past
   * their expiry stay listed until the host lets them go, having asked whether anything names
   * them. A service's records expire by themselves, so every host sees them go at once.
   */
  readonly sweptByHost?: boolean;
  /**
   * Where the file of `meta` lies on this host's disk, when the share keeps it in a file of its
   * own (a lone host's data folder): served from there, never read into memory to be copied.
   */
  fileOf?(meta: PublishedMeta): string | null;
}

/** Whether `value` reads as a stored PublishedMeta (what another host wrote, or an older version). */
export function isPublishedMeta(value: unknown): value is PublishedMeta {
  const v = value as Partial<PublishedMeta> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.id === 'string' &&
    typeof v.file_name === 'string' &&
    typeof v.sha === 'string' &&
    typeof v.type === 'string' &&
    typeof v.bytes === 'number' &&
    typeof v.expires_at === 'number' &&
    Array.isArray(v.tags)
  );
}
