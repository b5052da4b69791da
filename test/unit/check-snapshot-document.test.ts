/**
 * @module check-snapshot-document.test
 * A kept snapshot document read back for a restore: one that is no snapshot document (kept
 * before documents were checked on the way in) is the catalogued 410 saying so, never a 500;
 * a document as the host writes one passes both the full check and the one before a restore.
 */
import { describe, expect, it } from 'vitest';
import { snapshotDocumentFault, storedSnapshotDocument } from '../../core/snapshots/check-snapshot-document.ts';
import { isHostError } from '../../core/errors.ts';

const HASH = 'a'.repeat(64);
const DOCUMENT = {
  annotations: [{ id: '1', kind: 'line', points: [[0, 0, 0], [1, 0, 0]], label: 'ruler', version: 1, created: 5, updated: 5, length: 1 }],
  scene: {
    layers: [
      {
        id: 'scan',
        kind: 'image',
        source: { function: 'ramp', params: { n: 4 }, version: HASH },
        opacity: 0.5,
        by: 'ada',
        result: {
          result_id: HASH,
          type: 'volume',
          data_url: `/api/blobs/${HASH}`,
          blob_id: HASH,
          provenance: { plugin: 'p', version: '1.0.0', bundle: HASH, function: 'ramp', params: { n: 4 }, host: '0.1.0' },
        },
      },
    ],
    active: 'scan',
  },
  view: { colormap: 'magma', camera: { position: [0, 0, 5], target: [0, 0, 0], up: [0, 1, 0] } },
};

/** The error `storedSnapshotDocument` throws for `json`. */
function refusal(json: string): { code: string; status: number; message: string } {
  try {
    storedSnapshotDocument(HASH, json);
  } catch (error) {
    if (isHostError(error)) return { code: error.code, status: error.statusCode, message: error.message };
    throw error;
  }
  throw new Error('not refused');
}

describe('a snapshot document', () => {
  it('as the host writes one passes', () => {
    expect(snapshotDocumentFault(DOCUMENT)).toBeNull();
    expect(storedSnapshotDocument(HASH, JSON.stringify(DOCUMENT))).toEqual(DOCUMENT);
    // A room that talked to its agent is taken with its conversation.
    const talked = { ...DOCUMENT, conversation: [{ role: 'user', text: 'where is the lesion?' }, { role: 'agent', text: 'marked it' }] };
    expect(snapshotDocumentFault(talked)).toBeNull();
    expect(storedSnapshotDocument(HASH, JSON.stringify(talked))).toEqual(talked);
    // A layer showing a published array carries what published it instead of what computed it.
    const published = {
      specimen: 'lab.scan',
      sha256: HASH,
      client: 'vitrine-python/0.1.0',
      user: 'ada',
      published_at: '2026-11-26T20:00:00.000Z',
      source: null,
    };
    const layer = { ...DOCUMENT.scene.layers[0], result: { ...DOCUMENT.scene.layers[0]!.result, provenance: { published, host: '0.1.0' } } };
    const array = { ...DOCUMENT, scene: { ...DOCUMENT.scene, layers: [layer] } };
    expect(snapshotDocumentFault(array)).toBeNull();
    const badProvenance = { published: { ...published, sha256: 'x' }, host: '0.1.0' };
    const bad = { ...array, scene: { ...array.scene, layers: [{ ...layer, result: { ...layer.result, provenance: badProvenance } }] } };
    expect(snapshotDocumentFault(bad)).toContain('scene.layers[0].result.provenance.published.sha256 must be a SHA-256');
  });

  it('carries a conversation only as turns, at most as many as a room keeps', () => {
    const turns = (conversation: unknown) => snapshotDocumentFault({ ...DOCUMENT, conversation });
    expect(turns({ role: 'user', text: 'hi' })).toContain("'conversation' must be a list of turns");
    expect(turns([{ role: 'admin', text: 'hi' }])).toContain("'conversation[0]' must be");
    expect(turns([{ role: 'user', text: 'hi', by: 'ada' }])).toContain("'conversation[0]' must be");
    expect(turns(Array.from({ length: 201 }, () => ({ role: 'user', text: 'hi' })))).toContain('holds 201 turns');
  });

  it('kept though it is none is a 410 saying what is at fault, not a 500', () => {
    for (const [json, says] of [
      ['{"x":1}', "'x' is not a field"],
      ['[[[[]]]]', 'must be an object'],
      ['{"annotations": [], "scene": {"layers": [{}]}, "view": {}}', 'scene.layers[0].source is required'],
      ['not json', 'not JSON'],
    ]) {
      expect(refusal(json!)).toMatchObject({ code: 'SPC_ERR_SNAPSHOT_LOST', status: 410, message: expect.stringContaining(says!) });
    }
  });

  it('says which mark breaks a cap, and which host field is out of shape', () => {
    const long = { ...DOCUMENT, annotations: [{ ...DOCUMENT.annotations[0], label: 'x'.repeat(257) }] };
    expect(snapshotDocumentFault(long)).toContain('annotations[0].label must be at most 256 characters');
    const badResult = { type: 'volume', data_url: '/x', blob_id: 'zz' };
    const badId = { ...DOCUMENT, scene: { ...DOCUMENT.scene, layers: [{ ...DOCUMENT.scene.layers[0], result: badResult }] } };
    expect(snapshotDocumentFault(badId)).toContain('scene.layers[0].result.blob_id must be a result id');
    const twice = { ...DOCUMENT, annotations: [DOCUMENT.annotations[0], DOCUMENT.annotations[0]] };
    expect(snapshotDocumentFault(twice)).toContain("'annotations[1].id' '1' names two marks");
  });
});
