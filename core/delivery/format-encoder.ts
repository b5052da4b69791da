/**
 * @module format-encoder
 * The seam where delivery formats plug in. An encoder turns a typed result (already shaped by
 * the delivery's mesh or volume options) into the bytes of one format. Encoders run on the
 * encode worker thread, never on the event loop, and must be deterministic: the same result
 * and options give the same bytes on every host of a service. Register one in formats.ts.
 */
import type { ResultType } from '../sdk/result-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { DeliveryOptions } from './delivery-options.ts';

/** What an encoder may need beyond the result and options. */
export interface EncodeNames {
  /** The download's base name: the specimen id, or the function name for /invoke. */
  baseName: string;
  /** The host's envelope media type (`--envelope-media-type`). */
  envelopeMediaType: string;
  /**
   * The most bytes the delivery may take (`--max-delivery-bytes`): a writer that learns its size
   * only as it writes stops past it (OutputTooLarge); one whose size is known beforehand was checked.
   */
  maxBytes?: number;
}

export interface FormatEncoder {
  /** The result type this encoder takes. */
  readonly type: ResultType;
  /** The `format` value it answers (`glb`, `npy`, ...). */
  readonly format: string;
  /** File extension of a download, without the dot. */
  readonly extension: string;
  /** Media type of the bytes. */
  mediaType(names: EncodeNames): string;
  /** The bytes, as parts written in order (views onto the result's memory are fine). @throws OutputTooLarge past `names.maxBytes`. */
  encode(result: StoredResult, options: DeliveryOptions, names: EncodeNames): Uint8Array[] | Promise<Uint8Array[]>;
}
