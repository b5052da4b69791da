/**
 * @module routes-meshes
 * `GET /api/results/{result_id}/meshes/<key>`: a held result's surfaces in levels of detail, a
 * fastify route per kind of key. For Neuroglancer, its unsharded multi-resolution mesh format as
 * it reads it: `info`, `{segment}.index` (the manifest) and `{segment}` (the Draco fragments,
 * level 0 first, with ranges). For vitrine's page and WebXR viewer: `segments.json` (the
 * segments and their boxes), `{segment}.json` (the levels and the coarsest fragments),
 * `{segment}/{level}.json` (a level's fragments: cell, triangles, bytes and box),
 * `{segment}/{level}/{fragment}.glb` (one fragment as meshopt-compressed GLB) and `coarse/{k}`
 * (several segments' sidecars and coarsest fragments in one answer, for a first picture in a few
 * requests); for a notebook, `{segment}/{level}` (a whole level as one mesh, the envelope).
 * A segment whose set is built coarsest first (an edited version's changed segment) answers its
 * `{segment}.json`, its coarsest level's sidecar and GLBs and its place in `coarse/{k}` as soon as
 * that level is made, with the bytes the finished set answers.
 * Everything is named by the result's content, so every answer is immutable; a segment's files are
 * tagged by the result whose level set they are (an edited version's untouched segment: the
 * version it was made from). A labels result's
 * OME-Zarr store (`{result_id}.zarr/meshes/`) answers the same files beside its `zarr.json`
 * (NGFF's mesh proposal). A result that is neither a labels volume nor a mesh over
 * `--mesh-lod-triangles`, an unknown segment or key: 404; so is a result of closed rooms to whoever
 * may read none of them (serving/result-ids.ts says which rooms a result follows). Numbers in a key that are not digits
 * are an unknown key too (404, not a 400): the source is read as files, and a reader asks for
 * files that are there or not.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { isResultId } from '../../results/result-id.ts';
import { coarseBundle, levelSidecar, meshInfo, segmentList, segmentSidecar } from '../../meshes/lod-documents.ts';
import { COARSE_BUNDLE_SEGMENTS } from '../../wire/mesh-level-types.ts';
import { encodeMeshEnvelope } from '../../envelope/encode-envelope.ts';
import type { MeshLods } from '../../meshes/mesh-lods.ts';
import type { LodSubject } from '../../meshes/lod-subjects.ts';
import type { SegmentLods, ShownLevels } from '../../meshes/level-set.ts';
import { sendBytes } from '../send-bytes.ts';
import { IMMUTABLE, sendImmutableJson as sendJson } from '../blobs/routes-blobs.ts';
import { meshGroup } from '../../zarr/mesh-group.ts';
import { mayReadOneOf } from '../../people/specimen-access.ts';

type MeshesContext = Pick<HostContext, 'resultIds'> & {
  meshes: MeshLods;
  /** An edited layer's versions, as their ids name them. */
  editing: Pick<HostContext['editing'], 'regionsNamed'>;
  options: Pick<HostContext['options'], 'envelopeMediaType'>;
};

/** The numbers a key may name, each with the digits it may have and what it is. */
const NUMBERS = {
  segment: { pattern: /^\d{1,10}$/, description: 'A segment id (a mesh result: 1)' },
  level: { pattern: /^\d{1,2}$/, description: 'A level of detail, 0 the finest' },
  fragment: { pattern: /^\d{1,9}$/, description: "A fragment's place in its level's list (`{segment}/{level}.json`)" },
  k: { pattern: /^\d{1,9}$/, description: `Bundle: segments ${COARSE_BUNDLE_SEGMENTS}k and the ${COARSE_BUNDLE_SEGMENTS - 1} after it in \`segments.json\`` },
} as const;
type NumberName = keyof typeof NUMBERS;

/** A key asked of a source: the result's levels, the key as written, and the numbers it names. */
interface KeyAsked {
  ctx: MeshesContext;
  subject: LodSubject;
  id: string;
  key: string;
  inStore: boolean;
  numbers: Record<NumberName, number>;
  client: string;
}

/** One kind of key: its path in the source, what the OpenAPI document says of it, how it is answered. */
interface MeshKey {
  path: string;
  summary: string;
  description: string;
  serve(asked: KeyAsked, reply: FastifyReply): Promise<FastifyReply>;
}

function notFound(asked: KeyAsked): Error {
  return createHostError('SPC_ERR_MESH_KEY_NOT_FOUND', asked.key, asked.id);
}

/** `parts` tagged by `tagId` (the result's id, or for a segment's files the id of the result whose set it is) and the key. */
function sendPart(reply: FastifyReply, asked: KeyAsked, parts: readonly Uint8Array[], type: string, tagId = asked.id): FastifyReply {
  const etag = `"${tagId}.${asked.key}"`;
  return sendBytes(reply, parts, { 'content-type': type, 'cache-control': IMMUTABLE, etag }, etag);
}

/**
 * A segment's file, tagged by the result whose level set it is: a version of an edited
 * segmentation answers a segment its edits left alone with the earlier version's bytes and tag.
 */
async function sendSegmentPart(reply: FastifyReply, asked: KeyAsked, parts: readonly Uint8Array[], type: string): Promise<FastifyReply> {
  const earlier = asked.ctx.meshes.setId(asked.subject.result, asked.numbers.segment);
  return sendPart(reply, asked, parts, type, earlier ? await earlier : asked.id);
}

function lodsOf(asked: KeyAsked): Promise<SegmentLods> {
  return asked.ctx.meshes.segment(asked.subject, asked.numbers.segment, asked.client);
}

/**
 * What the segment's sidecars and GLB fragments of level `level` (absent: its coarsest) are read
 * from: the set's coarsest level while the finer ones are still encoded, else the whole set.
 */
async function shownOf(asked: KeyAsked, level?: number): Promise<ShownLevels> {
  const shown = await asked.ctx.meshes.shown(asked.subject, asked.numbers.segment, asked.client);
  return 'counts' in shown && level !== undefined && level !== shown.levels - 1 ? lodsOf(asked) : shown;
}

/** Fragment `index` of `level`, as its GLB bytes. */
function glbOf(lods: ShownLevels, level: number, index: number): Uint8Array | null {
  const fragment = lods.fragments.filter((f) => f.level === level)[index];
  return fragment ? lods.glb.subarray(fragment.glb[0], fragment.glb[0] + fragment.glb[1]) : null;
}

/** `coarse/{k}`: segments k·N.. of the list, their sidecars and coarsest GLBs in one answer; null past the list. */
async function coarseOf(asked: KeyAsked): Promise<Uint8Array[] | null> {
  const { k } = asked.numbers;
  const ids = Array.from(asked.subject.segments.subarray(k * COARSE_BUNDLE_SEGMENTS, (k + 1) * COARSE_BUNDLE_SEGMENTS));
  if (ids.length === 0) return null;
  const sets = await Promise.all(ids.map(async (segment) => ({ segment, lods: await asked.ctx.meshes.shown(asked.subject, segment, asked.client) })));
  return coarseBundle(sets);
}

const BINARY = 'application/octet-stream';

/** The kinds of key, a route each. Fastify prefers a fixed name to a parameter, so `info` is never segment "info". */
const KEYS: readonly MeshKey[] = [
  {
    path: 'info',
    summary: "Neuroglancer's `info` of the source",
    description: '`neuroglancer_multilod_draco`: the quantization bits, the transform into physical units and the LOD scale multiplier.',
    serve: async (asked, reply) => sendJson(reply, meshInfo(asked.subject)),
  },
  {
    path: 'segments.json',
    summary: 'The segments of the source and their boxes',
    description: "For vitrine's page and WebXR viewer.",
    serve: async (asked, reply) => sendJson(reply, segmentList(asked.subject)),
  },
  {
    path: 'zarr.json',
    summary: "The `meshes` group of a labels result's OME-Zarr store",
    description: 'Only inside the store (`{result_id}.zarr/meshes/zarr.json`), as the NGFF mesh proposal lays it out; elsewhere 404.',
    serve: async (asked, reply) => {
      if (!asked.inStore) throw notFound(asked);
      return sendJson(reply, meshGroup());
    },
  },
  {
    path: 'coarse/:k',
    summary: "Several segments' sidecars and coarsest fragments in one answer",
    description:
      `Segments ${COARSE_BUNDLE_SEGMENTS}k to ${COARSE_BUNDLE_SEGMENTS}k + ${COARSE_BUNDLE_SEGMENTS - 1} of the list: a uint32 length, their ` +
      "`{segment}.json` documents as one JSON array, then their coarsest fragments' GLB in order. Past the list: 404.",
    serve: async (asked, reply) => {
      const bundle = await coarseOf(asked);
      if (!bundle) throw notFound(asked);
      return sendPart(reply, asked, bundle, BINARY);
    },
  },
  {
    path: ':segment.index',
    summary: "A segment's manifest (Neuroglancer's multi-resolution index)",
    description: 'Chunk shape, grid origin, the levels, their scales and vertex offsets, and each level\'s fragments in Z-curve order with their sizes.',
    serve: async (asked, reply) => sendSegmentPart(reply, asked, [(await lodsOf(asked)).manifest], BINARY),
  },
  {
    path: ':segment.json',
    summary: "A segment's levels and its coarsest fragments",
    description: "For vitrine's page and WebXR viewer.",
    serve: async (asked, reply) => sendJson(reply, segmentSidecar(asked.numbers.segment, await shownOf(asked))),
  },
  {
    path: ':segment',
    summary: "A segment's Draco fragments, level 0 first",
    description: 'Ranges answered 206, a range past the end 416.',
    serve: async (asked, reply) => sendSegmentPart(reply, asked, [(await lodsOf(asked)).draco], BINARY),
  },
  {
    path: ':segment/:level.json',
    summary: "A level's fragments: their cells, triangles, bytes and boxes",
    description: 'A level the segment lacks: 404.',
    serve: async (asked, reply) => {
      const sidecar = levelSidecar(asked.numbers.segment, await shownOf(asked, asked.numbers.level), asked.numbers.level);
      if (!sidecar) throw notFound(asked);
      return sendJson(reply, sidecar);
    },
  },
  {
    path: ':segment/:level/:fragment.glb',
    summary: 'One fragment as meshopt-compressed GLB',
    description: 'A fragment the level lacks: 404.',
    serve: async (asked, reply) => {
      const glb = glbOf(await shownOf(asked, asked.numbers.level), asked.numbers.level, asked.numbers.fragment);
      if (!glb) throw notFound(asked);
      return sendSegmentPart(reply, asked, [glb], 'model/gltf-binary');
    },
  },
  {
    path: ':segment/:level',
    summary: 'A whole level as one mesh (the envelope)',
    description: 'For a notebook. A level the segment lacks: 404.',
    serve: async (asked, reply) => {
      const { segment, level } = asked.numbers;
      if (level >= (await lodsOf(asked)).levels) throw notFound(asked);
      const mesh = await asked.ctx.meshes.level(asked.subject, segment, level, asked.client);
      if (mesh.type !== 'mesh') throw notFound(asked);
      return sendSegmentPart(reply, asked, encodeMeshEnvelope(mesh).parts, asked.ctx.options.envelopeMediaType);
    },
  },
];

/** The path parameters of a key's route, as read from its path. */
function namesOf(path: string): NumberName[] {
  return [...path.matchAll(/:([a-z]+)/g)].map((match) => match[1] as NumberName);
}

/** The result and key a request asks for; a result without levels, or a key whose numbers are not digits: 404. */
async function keyAsked(ctx: MeshesContext, path: string, request: FastifyRequest, client: string): Promise<KeyAsked> {
  const params = request.params as Record<string, string>;
  // A labels result's OME-Zarr store holds the same files in its `meshes` group, as the NGFF mesh proposal lays them out.
  const inStore = params.id!.endsWith('.zarr');
  const id = inStore ? params.id!.slice(0, -'.zarr'.length) : params.id!;
  const key = path === '*' ? params['*']! : path.replace(/:([a-z]+)/g, (_, name: string) => params[name]!);
  // An edited layer's version is read by region, its voxels never made whole for its surfaces.
  const regions = isResultId(id) ? await ctx.editing.regionsNamed(id) : null;
  const result = regions ? ((await mayReadOneOf(regions.rooms)) ? regions : null) : isResultId(id) ? await ctx.resultIds.findReadable(id, client) : null;
  if (!result) throw createHostError('SPC_ERR_RESULT_ID_NOT_FOUND', id);
  const subject = await ctx.meshes.subject(result, id, client);
  if (inStore && !subject.index) throw createHostError('SPC_ERR_MESH_KEY_NOT_FOUND', `meshes/${key}`, `${id}.zarr`);
  const numbers = {} as Record<NumberName, number>;
  for (const name of namesOf(path)) {
    if (!NUMBERS[name].pattern.test(params[name]!)) throw createHostError('SPC_ERR_MESH_KEY_NOT_FOUND', key, id);
    numbers[name] = Number(params[name]);
  }
  return { ctx, subject, id, key, inStore, numbers, client };
}

function paramsSchema(path: string): object {
  const properties: Record<string, object> = { id: { type: 'string', description: 'The result id (X-Result-Id); `{result_id}.zarr` for the store' } };
  for (const name of namesOf(path)) properties[name] = { type: 'string', description: `${NUMBERS[name].description} (digits)` };
  return { type: 'object', required: Object.keys(properties), properties };
}

export async function meshRoutes(app: FastifyInstance, { ctx }: { ctx: MeshesContext }): Promise<void> {
  const built =
    'Every labels result (each segment) and every mesh result over `--mesh-lod-triangles` (segment 1); built on first ask, then kept; immutable. ';
  for (const kind of KEYS) {
    const schema = { summary: kind.summary, description: built + kind.description, params: paramsSchema(kind.path) };
    const serve = async (request: FastifyRequest, reply: FastifyReply) => kind.serve(await keyAsked(ctx, kind.path, request, request.ip), reply);
    app.get(`/api/results/:id/meshes/${kind.path}`, { schema }, serve);
  }
  // Any other key names no file of the source: the result is checked as for the others, then 404.
  app.get('/api/results/:id/meshes/*', { schema: { hide: true } }, async (request) => {
    throw notFound(await keyAsked(ctx, '*', request, request.ip));
  });
}
