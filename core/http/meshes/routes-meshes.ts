/**
 * @module routes-meshes
 * `GET /api/results/{result_id}/meshes/<key>`: a held result's surfaces in levels of detail.
 * For Neuroglancer, its unsharded multi-resolution mesh format as it reads it: `info`,
 * `{segment}.index` (the manifest) and `{segment}` (the Draco fragments, level 0 first, with
 * ranges). For vitrine's page and WebXR viewer: `segments.json` (the segments and their
 * boxes), `{segment}.json` (the levels and the coarsest fragments), `{segment}/{level}.json`
 * (a level's fragments: cell, triangles, bytes and box) and `{segment}/{level}/{fragment}.glb`
 * (one fragment as meshopt-compressed GLB), and `coarse/{k}` (several segments' sidecars and
 * coarsest fragments in one answer, for a first picture in a few requests); for a notebook, `{segment}/{level}` (a whole level
 * as one mesh, the envelope). Everything is
 * named by the result's content, so every answer is immutable. A labels result's OME-Zarr store
 * (`{result_id}.zarr/meshes/`) answers the same files beside its `zarr.json` (NGFF's mesh proposal). A result that is neither a
 * labels volume nor a mesh over `--mesh-lod-triangles`, an unknown segment or key: 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { isResultId } from '../../results/result-id.ts';
import { coarseBundle, levelSidecar, meshInfo, segmentList, segmentSidecar } from '../../meshes/lod-documents.ts';
import { COARSE_BUNDLE_SEGMENTS } from '../../wire/mesh-level-types.ts';
import { encodeMeshEnvelope } from '../../envelope/encode-envelope.ts';
import type { LodSubject, MeshLods } from '../../meshes/mesh-lods.ts';
import type { SegmentLods } from '../../meshes/level-set.ts';
import { sendBytes } from '../send-bytes.ts';
import { IMMUTABLE, sendImmutableJson as sendJson } from '../blobs/routes-blobs.ts';
import { meshGroup } from '../../zarr/mesh-group.ts';

type MeshesContext = Pick<HostContext, 'resultIds'> & { meshes: MeshLods; options: Pick<HostContext['options'], 'envelopeMediaType'> };
type MeshRequest = FastifyRequest<{ Params: { id: string; '*': string } }>;

/** A key of the source: a document, a segment's file, or one of its GLB fragments. */
const KEY = /^(?:(info|segments\.json)|(\d{1,10})(\.index|\.json)?|(\d{1,10})\/(\d{1,2})(\.json|\/(\d{1,9})\.glb)?)$/;

async function subjectOf(ctx: MeshesContext, id: string, client: string): Promise<LodSubject> {
  const result = isResultId(id) ? await ctx.resultIds.find(id, client) : null;
  if (!result) throw createHostError('SPC_ERR_RESULT_ID_NOT_FOUND', id);
  return ctx.meshes.subject(result, id, client);
}

function sendPart(reply: FastifyReply, bytes: Uint8Array, type: string, etag: string): FastifyReply {
  return sendBytes(reply, [bytes], { 'content-type': type, 'cache-control': IMMUTABLE, etag }, etag);
}

/** Fragment `index` of `level`, as its GLB bytes. */
function glbOf(lods: SegmentLods, level: number, index: number): Uint8Array | null {
  const fragment = lods.fragments.filter((f) => f.level === level)[index];
  return fragment ? lods.glb.subarray(fragment.glb[0], fragment.glb[0] + fragment.glb[1]) : null;
}

/** `coarse/{k}`: segments k·N.. of the list, their sidecars and coarsest GLBs in one answer; null past the list. */
async function coarseOf(ctx: MeshesContext, subject: LodSubject, k: number, client: string): Promise<Uint8Array[] | null> {
  const ids = Array.from(subject.segments.subarray(k * COARSE_BUNDLE_SEGMENTS, (k + 1) * COARSE_BUNDLE_SEGMENTS));
  if (ids.length === 0) return null;
  return coarseBundle(await Promise.all(ids.map(async (segment) => ({ segment, lods: await ctx.meshes.segment(subject, segment, client) }))));
}

async function serveKey(ctx: MeshesContext, request: MeshRequest, reply: FastifyReply): Promise<FastifyReply> {
  // A labels result's OME-Zarr store holds the same files in its `meshes` group, as the NGFF mesh proposal lays them out.
  const inStore = request.params.id.endsWith('.zarr');
  const id = inStore ? request.params.id.slice(0, -'.zarr'.length) : request.params.id;
  const key = request.params['*'];
  const subject = await subjectOf(ctx, id, request.ip);
  if (inStore && !subject.index) throw createHostError('SPC_ERR_MESH_KEY_NOT_FOUND', `meshes/${key}`, `${id}.zarr`);
  if (inStore && key === 'zarr.json') return sendJson(reply, meshGroup());
  const coarse = /^coarse\/(\d{1,9})$/.exec(key);
  const bundle = coarse ? await coarseOf(ctx, subject, Number(coarse[1]), request.ip) : null;
  const etag = `"${id}.${key}"`;
  if (bundle) return sendBytes(reply, bundle, { 'content-type': 'application/octet-stream', 'cache-control': IMMUTABLE, etag }, etag);
  const match = KEY.exec(key);
  if (!match) throw createHostError('SPC_ERR_MESH_KEY_NOT_FOUND', key, id);
  if (match[1] === 'info') return sendJson(reply, meshInfo(subject));
  if (match[1]) return sendJson(reply, segmentList(subject));
  const segment = Number(match[2] ?? match[4]);
  const lods = await ctx.meshes.segment(subject, segment, request.ip);
  if (match[3] === '.index') return sendPart(reply, lods.manifest, 'application/octet-stream', etag);
  if (match[3] === '.json') return sendJson(reply, segmentSidecar(segment, lods));
  if (match[2]) return sendPart(reply, lods.draco, 'application/octet-stream', etag);
  const level = Number(match[5]);
  if (match[6] === '.json') {
    const sidecar = levelSidecar(segment, lods, level);
    if (sidecar) return sendJson(reply, sidecar);
  } else if (match[6]) {
    const glb = glbOf(lods, level, Number(match[7]));
    if (glb) return sendPart(reply, glb, 'model/gltf-binary', etag);
  } else if (level < lods.levels) {
    const mesh = await ctx.meshes.level(subject, segment, level, request.ip);
    const headers = { 'content-type': ctx.options.envelopeMediaType, 'cache-control': IMMUTABLE, etag };
    if (mesh.type === 'mesh') return sendBytes(reply, encodeMeshEnvelope(mesh).parts, headers, etag);
  }
  throw createHostError('SPC_ERR_MESH_KEY_NOT_FOUND', key, id);
}

export async function meshRoutes(app: FastifyInstance, opts: { ctx: MeshesContext }): Promise<void> {
  const { ctx } = opts;
  const schema = {
    summary: "A held result's surfaces in levels of detail (Neuroglancer's multi-resolution meshes, and GLB fragments)",
    description:
      'Every labels result (each segment) and every mesh result over `--mesh-lod-triangles` (segment 1). For Neuroglancer ' +
      '(`precomputed://<host>/api/results/{result_id}/meshes`): `info`, `{segment}.index` (the manifest), `{segment}` (Draco fragments, ' +
      'level 0 first; ranges answered 206, past the end 416). For the page and WebXR: `segments.json`, `{segment}.json` ' +
      '(its levels and its coarsest fragments), `coarse/{k}` (segments 16k to 16k + 15 of the list: a uint32 length, ' +
      'their `{segment}.json` documents as one JSON array, then their coarsest fragments\' GLB in order), ' +
      '`{segment}/{level}.json` (a level\'s fragments with their cells, triangles, bytes and ' +
      'boxes) and `{segment}/{level}/{fragment}.glb` (meshopt-compressed GLB); `{segment}/{level}` is a whole level as one mesh ' +
      '(the envelope). Built on first ask, then kept; immutable.',
    params: {
      type: 'object',
      required: ['id', '*'],
      properties: {
        id: { type: 'string', description: 'The result id (X-Result-Id)' },
        '*': { type: 'string', description: 'The key inside the source' },
      },
    },
  };
  app.get('/api/results/:id/meshes/*', { schema }, (request: MeshRequest, reply) => serveKey(ctx, request, reply));
}
