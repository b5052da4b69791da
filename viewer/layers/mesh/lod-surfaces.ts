/**
 * @module lod-surfaces
 * Surfaces drawn from their levels of detail (a segmentation's segments, or a large mesh's one
 * surface): before every frame, on the page or in a headset alike, it reads the camera the
 * stage draws with (the headset's in a VR session), chooses the fragments by screen-space
 * error within the frame's triangle budget (lod-select.ts), hangs exactly those in its group,
 * and hands the store what to fetch (lod-store.ts): first the shown surfaces' levels with their
 * coarsest fragments, several surfaces to a request (lod-coarse.ts). Each segment is drawn in
 * its own colour; the layer's look (opacity, blending, clip planes) goes on every segment's
 * material; a pick names the segment it hit. Its figures are on `window.vitrineLod` (lod-probe.ts). Until every
 * shown surface's coarsest level is in, an arrival draws no frame: the first picture is one
 * frame, not one per segment (a frame in software rendering can outlast many fetches).
 */
import * as THREE from 'three';
import type { MeshLevels } from '../../../core/client/mesh-levels.ts';
import type { MeshSegmentList } from '../../../core/wire/mesh-level-types.ts';
import type { Stage } from '../../stage/stage.ts';
import type { ContentHit, LayerLook, StageContent } from '../../stage/stage-content.ts';
import { applyMaterialLook, PLAIN_LOOK, setOwnOpacity } from '../../stage/layer-look.ts';
import { decodeFragmentGlb } from './glb-mesh.ts';
import { meshMaterial } from './mesh-object.ts';
import { HEADSET_BYTES, LOD_CONCURRENCY, PAGE_BYTES, type LodBudget } from './lod-budget.ts';
import { lodLayerCount, probeLayer, type LodProbeLayer } from './lod-probe.ts';
import { bundles, coarseKey, coarseTasks } from './lod-coarse.ts';
import { countHoles, selectFragments, type LodView } from './lod-select.ts';
import { LodStore, type LodTask } from './lod-store.ts';
import type { LodNode, SegmentTree } from './lod-tree.ts';

export interface LodSurfacesOptions {
  levels: MeshLevels;
  list: MeshSegmentList;
  /** The colour segment `id` is drawn in; null: not drawn. */
  colour(id: number): THREE.Color | null;
  /** Picks name the segment hit as a label (a segmentation's surfaces), with this name. */
  label?(id: number): string | null;
  budget: LodBudget;
}

export interface LodSurfaces extends StageContent {
  /** Reads every segment's colour again (and which are drawn), from `colour` when given. */
  recolour(colour?: (id: number) => THREE.Color | null): void;
}

type LodStage = Pick<Stage, 'onBeforeFrame' | 'invalidate' | 'renderer' | 'view' | 'firstPicture'>;

/**
 * An unseen box around every surface listed, so the stage frames them before any fragment is
 * in (its box is what the camera is put around); null when the list gives no boxes.
 */
function boundsOf(list: MeshSegmentList): THREE.Mesh | null {
  const box = new THREE.Box3();
  for (const { box: b } of list.segments) {
    if (b?.length === 6) box.union(new THREE.Box3(new THREE.Vector3(b[0], b[1], b[2]), new THREE.Vector3(b[3], b[4], b[5])));
  }
  if (box.isEmpty()) return null;
  const size = box.getSize(new THREE.Vector3());
  const mesh = new THREE.Mesh(new THREE.BoxGeometry(size.x, size.y, size.z));
  box.getCenter(mesh.position);
  mesh.visible = false;
  return mesh;
}

const clip = new THREE.Matrix4();
const inverse = new THREE.Matrix4();
const size = new THREE.Vector2();

/**
 * The camera a frame is drawn with, in the frame of `object`: its position, its view's frustum
 * and the pixels a unit spans at distance 1. On the page it is the stage's camera and the
 * canvas; in a VR session the headset's (the camera three.js drew the last frame with: both
 * eyes' frustum, one eye's viewport).
 */
function lodView(stage: Pick<Stage, 'renderer' | 'view'>, object: THREE.Object3D): LodView {
  const { renderer } = stage;
  const presenting = renderer.xr.isPresenting;
  const camera: THREE.PerspectiveCamera | THREE.ArrayCamera = presenting ? renderer.xr.getCamera() : stage.view.camera;
  // The page's camera moved by its controls since it was last drawn; the headset's is three's to place.
  if (!presenting) camera.updateMatrixWorld();
  object.updateWorldMatrix(true, false);
  clip.multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse).multiply(object.matrixWorld);
  const frustum = new THREE.Frustum().setFromProjectionMatrix(clip);
  inverse.copy(object.matrixWorld).invert();
  const position = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld).applyMatrix4(inverse);
  const eye = presenting ? (camera as THREE.ArrayCamera).cameras[0]?.viewport?.w : undefined;
  const height = eye && eye > 0 ? eye : renderer.getDrawingBufferSize(size).y;
  return { position, frustum, pixelsPerUnit: (height / 2) * camera.projectionMatrix.elements[5]! };
}

/** What a frame hangs its fragments in. */
interface Hanger {
  group: THREE.Group;
  meshes: Map<string, THREE.Mesh>;
  store: LodStore;
  material(id: number): THREE.Material;
  renderOrder: number;
}

/** Hangs exactly the fragments `drawn` in the group (each held by the store). */
function hang({ group, meshes, store, material, renderOrder }: Hanger, drawn: readonly LodNode[]): void {
  const keys = new Set(drawn.map((node) => node.key));
  for (const [key, mesh] of meshes) {
    if (keys.has(key)) continue;
    group.remove(mesh);
    meshes.delete(key);
  }
  for (const node of drawn) {
    if (meshes.has(node.key)) continue;
    const held = store.get(node)!;
    const mesh = new THREE.Mesh(held.geometry, material(node.segment));
    mesh.matrixAutoUpdate = false;
    mesh.matrix.copy(held.matrix);
    mesh.renderOrder = renderOrder;
    mesh.userData.node = node;
    group.add(mesh);
    meshes.set(node.key, mesh);
  }
}

/** A frame's figures into the layer's probe. */
function record(
  figures: LodProbeLayer,
  frame: Pick<LodProbeLayer, 'triangles' | 'holes' | 'budget' | 'segments' | 'shown'> & { vr: boolean; drawn: readonly LodNode[] },
  store: LodStore,
): void {
  const { vr, drawn, ...latest } = frame;
  Object.assign(figures, latest, { heldBytes: store.bytes, inFlight: store.inFlight, ...store.counts });
  figures.frames++;
  if (vr) figures.vrFrames++;
  figures.maxTriangles = Math.max(figures.maxTriangles, frame.triangles);
  if (frame.holes > 0) figures.holeFrames++;
  const levels: number[] = [];
  for (const node of drawn) levels[node.level] = (levels[node.level] ?? 0) + 1;
  figures.levels = Array.from(levels, (n) => n ?? 0);
  if (figures.firstPictureAt === null && frame.segments > 0 && frame.shown === frame.segments) figures.firstPictureAt = performance.now();
}

export function createLodSurfaces(stage: LodStage, options: LodSurfacesOptions): LodSurfaces {
  const { levels } = options;
  const group = new THREE.Group();
  const trees = new Map<number, SegmentTree>();
  const materials = new Map<number, THREE.MeshStandardMaterial>();
  const meshes = new Map<string, THREE.Mesh>();
  const everShown = new Set<number>();
  const probe = probeLayer(levels.resultId);
  // The page's first picture waits for every shown surface's coarsest level.
  const pictured = stage.firstPicture.hold();
  let colourOf = options.colour;
  let look: LayerLook = PLAIN_LOOK;
  let ownOpacity = 1;
  const presenting = () => stage.renderer.xr.isPresenting;
  const bundleOf = bundles(options.list);
  const bundled = new Map<string, ArrayBuffer>(); // a coarse bundle's GLBs, until decoded
  const store = new LodStore({
    concurrency: LOD_CONCURRENCY,
    maxBytes: () => (presenting() ? HEADSET_BYTES : PAGE_BYTES),
    decode: async (node, signal) => decodeFragmentGlb(bundled.get(node.entry.glb) ?? (await levels.fragment(node.entry.glb, signal))),
    arrived: () => void (coarsePending() || stage.invalidate()),
    failed: (error) => void (console.warn('a level of detail could not be read:', error), stage.invalidate()),
  });
  const coarsePending = () =>
    options.list.segments.some(({ id }) => !trees.has(id) && drawable(id) && !store.failed(coarseKey(bundleOf(id))));
  const materialOf = (id: number): THREE.MeshStandardMaterial | null => {
    let material = materials.get(id);
    if (material === undefined) {
      const colour = colourOf(id);
      if (!colour) return null;
      material = meshMaterial(colour);
      setOwnOpacity(material, ownOpacity);
      applyMaterialLook(material, look);
      materials.set(id, material);
    }
    return material.visible ? material : null;
  };
  const drawable = (id: number) => materialOf(id) !== null;

  /** Coarse bundles holding shown segments not read yet, then the levels the selection needs. */
  const tasks = (needed: { tree: SegmentTree; level: number; urgency: number }[]): LodTask[] => {
    const out = coarseTasks(options.list, bundleOf, (id) => !trees.has(id) && drawable(id), { levels, store, bundled, trees });
    for (const { tree, level, urgency } of needed) {
      const key = `level:${tree.segment}/${level}`;
      if (out.some((task) => task.key === key)) continue;
      out.push({ key, urgency, run: async (signal) => tree.addLevel(level, (await levels.level(tree.segment, level, signal)).fragments) });
    }
    return out;
  };

  const frame = (): void => {
    let seen = true;
    group.traverseAncestors((node) => (seen &&= node.visible));
    if (!seen || !group.parent) return;
    const shownTrees = [...trees.values()].filter((tree) => drawable(tree.segment));
    // Every layer drawn from levels has its share of the frame's budget.
    const budget = Math.floor((presenting() ? options.budget.headset : options.budget.page) / Math.max(1, lodLayerCount()));
    const view = lodView(stage, group);
    const selection = selectFragments(shownTrees, view, budget, (node) => store.has(node));
    hang({ group, meshes, store, material: (id) => materialOf(id)!, renderOrder: look.renderOrder }, selection.drawn);
    const drawn = new Set(selection.drawn);
    const kept = new Set<string>();
    for (const node of selection.drawn) for (let up: LodNode | null = node; up && !kept.has(up.key); up = up.parent) kept.add(up.key);
    for (const tree of shownTrees) if (tree.roots.every((root) => drawn.has(root))) everShown.add(tree.segment);
    const first = tasks(selection.levels);
    // Coarse first: nothing finer is fetched while a shown surface's coarsest level is to come.
    const coarse = first.filter((task) => task.urgency === Infinity && !store.failed(task.key));
    const finer = () => selection.wanted.map(({ node, urgency }) => store.fragmentTask(node, urgency));
    const wanted = coarse.length > 0 ? coarse : [...first, ...finer()];
    store.update(wanted.sort((a, b) => b.urgency - a.urgency), selection.drawn, kept);
    const listed = options.list.segments.filter(({ id }) => drawable(id));
    const holes = countHoles(shownTrees, drawn, (tree) => everShown.has(tree.segment));
    const shown = listed.filter(({ id }) => everShown.has(id)).length;
    if (shown === listed.length) pictured();
    const { triangles, drawn: nodes } = selection;
    record(probe.figures, { triangles, holes, budget, vr: presenting(), drawn: nodes, segments: listed.length, shown }, store);
  };

  const bounds = boundsOf(options.list);
  if (bounds) group.add(bounds);
  const off = stage.onBeforeFrame(frame);
  stage.invalidate();

  return {
    object: group,
    applyView(view) {
      if (typeof view.opacity !== 'number' || !(view.opacity >= 0 && view.opacity <= 1)) return;
      ownOpacity = view.opacity;
      for (const material of materials.values()) setOwnOpacity(material, ownOpacity);
    },
    applyLook(next) {
      look = next;
      for (const material of materials.values()) applyMaterialLook(material, look);
      for (const mesh of meshes.values()) mesh.renderOrder = look.renderOrder;
    },
    recolour(colour) {
      colourOf = colour ?? colourOf;
      for (const [id, material] of materials) {
        const colour = colourOf(id);
        material.visible = colour !== null;
        if (colour) material.color.copy(colour);
      }
      stage.invalidate();
    },
    pick(ray, kept): ContentHit | null {
      for (const hit of ray.intersectObjects([...meshes.values()], false)) {
        if (!kept(hit.point)) continue;
        const id = (hit.object.userData.node as LodNode).segment;
        const label = options.label ? { label: { id, name: options.label(id) } } : {};
        return { distance: hit.distance, point: hit.point.clone(), kind: 'surface', ...label };
      }
      return null;
    },
    dispose() {
      off();
      pictured();
      store.dispose();
      group.clear();
      meshes.clear();
      for (const material of materials.values()) material.dispose();
      bounds?.geometry.dispose();
      probe.forget();
    },
  };
}
