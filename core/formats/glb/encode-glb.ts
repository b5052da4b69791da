/**
 * @module encode-glb
 * A mesh result as a binary glTF (GLB), written with glTF-Transform. Plain: float32 positions
 * and normals, integer indices and no extension at all, which any glTF reader (Godot 4 at run
 * time among them) loads. Meshopt: vertices reordered for locality, positions quantised to
 * 12-bit integers (the node's translation and scale undo it), normals octahedral-encoded in
 * 8 bits, then every buffer view compressed with meshoptimizer's codec. Both
 * EXT_meshopt_compression and KHR_mesh_quantization are then required, so a reader without
 * them refuses the file instead of drawing garbage.
 */
import type { MeshResult } from '../../sdk/result-types.ts';
import { gltfModules, type GltfModules } from './gltf-modules.ts';

/**
 * Quantised position precision: a step of 1/4095 of the largest extent (a quarter of a
 * millimetre on a metre-wide specimen, under a pixel on screen). On our isosurfaces 12 bits
 * take about 10% fewer bytes than gltfpack's default of 14, which keeps a 100k-triangle mesh
 * under 2.5 bytes per triangle once gzipped.
 */
export const POSITION_BITS = 12;

export interface GlbOptions {
  /** Compress with meshoptimizer (EXT_meshopt_compression + KHR_mesh_quantization). */
  meshopt: boolean;
}

/** The smallest integer array that holds indices below `vertexCount`. */
function indexArray(indices: ArrayLike<number>, vertexCount: number): Uint16Array | Uint32Array {
  return vertexCount <= 0xffff ? Uint16Array.from(indices) : Uint32Array.from(indices);
}

/** A document with one mesh of one triangle primitive; returns the node that holds it. */
function meshDocument(
  { core: { Document } }: GltfModules,
  positions: Float32Array | Uint16Array,
  normals: Float32Array | undefined,
  indices: Uint16Array | Uint32Array,
) {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'vitrine';
  const buffer = doc.createBuffer();
  const primitive = doc.createPrimitive();
  primitive.setAttribute('POSITION', doc.createAccessor('position').setType('VEC3').setArray(positions).setBuffer(buffer));
  if (normals) primitive.setAttribute('NORMAL', doc.createAccessor('normal').setType('VEC3').setArray(normals).setBuffer(buffer));
  primitive.setIndices(doc.createAccessor('indices').setType('SCALAR').setArray(indices).setBuffer(buffer));
  const node = doc.createNode('mesh').setMesh(doc.createMesh('mesh').addPrimitive(primitive));
  doc.createScene('scene').addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]!);
  return { doc, node };
}

async function encodePlain(libs: GltfModules, mesh: MeshResult): Promise<Uint8Array> {
  const { doc } = meshDocument(libs, mesh.vertices, mesh.normals, indexArray(mesh.indices, mesh.vertices.length / 3));
  return new libs.core.NodeIO().writeBinary(doc);
}

/**
 * Vertices in the order their triangles first use them (meshoptimizer's reorderMesh, which
 * also orders triangles for the codec); unused vertices are dropped.
 */
function reorder({ meshopt: { MeshoptEncoder } }: GltfModules, mesh: MeshResult) {
  const indices = Uint32Array.from(mesh.indices);
  const [remap, count] = MeshoptEncoder.reorderMesh(indices, true, true);
  const vertices = new Float32Array(count * 3);
  const normals = mesh.normals ? new Float32Array(count * 3) : undefined;
  for (let i = 0; i < remap.length; i++) {
    const to = remap[i]!;
    if (to === 0xffffffff) continue;
    for (let c = 0; c < 3; c++) {
      vertices[to * 3 + c] = mesh.vertices[i * 3 + c]!;
      if (normals) normals[to * 3 + c] = mesh.normals![i * 3 + c]!;
    }
  }
  return { vertices, normals, indices, count };
}

/** Positions as unsigned integers on a uniform grid over the bounding box: q * scale + min. */
export function quantizePositions(vertices: Float32Array): { q: Uint16Array; min: [number, number, number]; scale: number } {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < vertices.length; i++) {
    const c = i % 3;
    const v = vertices[i]!;
    if (v < min[c]!) min[c] = v;
    if (v > max[c]!) max[c] = v;
  }
  if (vertices.length === 0) min.fill(0);
  const extent = Math.max(max[0]! - min[0], max[1]! - min[1], max[2]! - min[2], 0);
  // One uniform scale keeps normals valid under the node transform.
  const scale = extent > 0 ? extent / ((1 << POSITION_BITS) - 1) : 1;
  const q = new Uint16Array(vertices.length);
  for (let i = 0; i < vertices.length; i++) q[i] = Math.round((vertices[i]! - min[i % 3]!) / scale);
  return { q, min, scale };
}

/**
 * A GLB with an empty scene, for a mesh with no triangle: glTF allows no empty accessor, and
 * with no data there is nothing to compress (and no extension to require).
 */
function encodeEmpty({ core: { Document, NodeIO } }: GltfModules): Promise<Uint8Array> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'vitrine';
  doc.getRoot().setDefaultScene(doc.createScene('scene'));
  return new NodeIO().writeBinary(doc);
}

async function encodeMeshopt(libs: GltfModules, mesh: MeshResult): Promise<Uint8Array> {
  const { core: { NodeIO }, extensions: { EXTMeshoptCompression, KHRMeshQuantization }, meshopt: { MeshoptEncoder } } = libs;
  await MeshoptEncoder.ready;
  const ordered = reorder(libs, mesh);
  const { q, min, scale } = quantizePositions(ordered.vertices);
  const { doc, node } = meshDocument(libs, q, ordered.normals, indexArray(ordered.indices, ordered.count));
  node.setTranslation(min).setScale([scale, scale, scale]);
  doc.createExtension(KHRMeshQuantization).setRequired(true);
  // 'filter' encodes normals octahedrally (8 bits) before the lossless codec.
  doc.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.FILTER });
  const io = new NodeIO().registerExtensions([EXTMeshoptCompression, KHRMeshQuantization]).registerDependencies({ 'meshopt.encoder': MeshoptEncoder });
  return io.writeBinary(doc);
}

/** The GLB bytes of `mesh`. */
export async function encodeGlb(mesh: MeshResult, options: GlbOptions): Promise<Uint8Array> {
  const libs = await gltfModules();
  // No triangle to draw.
  if (mesh.indices.length < 3 || mesh.vertices.length < 3) return encodeEmpty(libs);
  return options.meshopt ? encodeMeshopt(libs, mesh) : encodePlain(libs, mesh);
}
