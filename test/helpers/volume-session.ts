/**
 * @module volume-session
 * A session file of one layer showing a volume of random bytes, made as the host writes one
 * (its chunks, not joined: a caller streams large ones without copying them), with its
 * snapshot id, its result id and the SHA-256 of the volume's bytes: what tests and benchmarks
 * of session imports send.
 */
import { createHash, randomFillSync } from 'node:crypto';
import { hashFrame } from '../../core/results/result-id.ts';
import { encodeResultFrame } from '../../core/results/result-frame.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { writeSession } from '../../core/snapshots/write-session.ts';

export interface VolumeSession {
  chunks: Uint8Array[];
  length: number;
  id: string;
  resultId: string;
  payloadSha: string;
}

/** A session of a `megabytes` MiB volume of random bytes (`seed` in its layer's source). */
export function volumeSession(megabytes: number, seed: number): VolumeSession {
  const data = randomFillSync(new Uint8Array(megabytes * 1024 * 1024));
  const result: StoredResult = { type: 'volume', shape: [data.length], dtype: 'uint8', data };
  const { header, blocks } = encodeResultFrame(result);
  const resultId = hashFrame(header, blocks);
  const layer = {
    id: 'big',
    kind: 'image',
    source: { function: 'big_volume', params: { megabytes, seed } },
    result: { result_id: resultId, type: 'volume', data_url: `/api/blobs/${resultId}`, blob_id: resultId },
  };
  const json = JSON.stringify({ annotations: [], scene: { layers: [layer], active: 'big' }, view: {} });
  const id = createHash('sha256').update(json).digest('hex');
  const { chunks, length } = writeSession(id, json, Date.now(), new Map([[resultId, result]]));
  const payloadSha = createHash('sha256').update(data).digest('hex');
  return { chunks, length, id, resultId, payloadSha };
}
