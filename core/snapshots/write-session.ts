/**
 * @module write-session
 * A snapshot as a session file: its manifest, its document and each result its layers show,
 * framed as session-layout.ts says, then the published files its layers name. The arrays are
 * sent from where the results lie, not copied.
 */
import { writeTar, type TarFile } from '../formats/tar/write-tar.ts';
import { encodeResultFrame } from '../results/result-frame.ts';
import type { StoredResult } from '../results/stored-result.ts';
import {
  DOCUMENT_NAME,
  MANIFEST_NAME,
  RESULTS_DIR,
  SESSION_FORMAT,
  SESSION_VERSION,
  SPECIMENS_DIR,
  type CarriedSpecimen,
  type SessionManifest,
} from './session-layout.ts';

/** The archive of snapshot `id` (`json` as stored, taken at `created`) with `results` by id and the published files it names. */
export function writeSession(
  id: string,
  json: string,
  created: number,
  results: ReadonlyMap<string, StoredResult>,
  specimens: readonly CarriedSpecimen[] = [],
): { chunks: Uint8Array[]; length: number } {
  const manifest: SessionManifest = { format: SESSION_FORMAT, version: SESSION_VERSION, snapshot: id, created };
  const files: TarFile[] = [
    { name: MANIFEST_NAME, data: [Buffer.from(JSON.stringify(manifest), 'utf8')] },
    { name: DOCUMENT_NAME, data: [Buffer.from(json, 'utf8')] },
  ];
  for (const [resultId, result] of results) {
    const { header, blocks } = encodeResultFrame(result);
    files.push({ name: `${RESULTS_DIR}${resultId}`, data: [Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), ...blocks] });
  }
  specimens.forEach(({ header, bytes }, n) => files.push({ name: `${SPECIMENS_DIR}${n}`, data: [Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), bytes] }));
  return writeTar(files, created);
}
