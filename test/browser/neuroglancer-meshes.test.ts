/**
 * A stock Neuroglancer draws a labels layer's surfaces from the room's state alone, with no
 * precompute step, at their voxels' place: the state gives the labels layer the host's
 * multi-resolution meshes beside its volume, and Neuroglancer reads `info`, the manifests and
 * the Draco fragments as they are. Three segments fill boxes of voxels in a volume whose
 * spacing differs on each axis, with an origin away from zero and a unit (micrometres): the
 * 3-D view, orthographic, framed as the room's state frames it (its position and scale), looks
 * straight down z and then straight along y. Each segment is drawn in a colour of its own; its
 * pixels are counted, and their bounds, read back through the view's position and scale into
 * voxels, lie within one voxel of the segment's box on every axis. A surface moved, scaled
 * (a wrong unit or spacing), mirrored or with its axes swapped would not.
 */
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { serveNeuroglancer, type NeuroglancerPage } from '../../build/tools/neuroglancer/neuroglancer-bundle.ts';
import { room as freshRoom } from '../helpers/room.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { shot } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';

/** The volume's shape, C order (z, y, x): no two sides alike, so swapped axes show. */
const SHAPE = [20, 28, 36] as const;
/** Physical size of a voxel and place of voxel 0's centre, C order (z, y, x), in micrometres. */
const SPACING = [1.5, 0.5, 0.75];
const ORIGIN = [-4, 3, 10];
/** Axis index into x, y, z. */
type Axis = 0 | 1 | 2;
/** Each segment's voxels, first and last (inclusive) along x, y, z, apart along x so no view hides one behind another. */
const BOXES: Record<string, [[number, number], [number, number], [number, number]]> = {
  '1': [[3, 10], [4, 12], [3, 8]],
  '2': [[14, 21], [15, 24], [10, 16]],
  '3': [[25, 33], [6, 18], [5, 15]],
};
/** The colour each segment is drawn in, and the channel (r, g, b) a pixel of it is made of. */
const COLOURS: Record<string, [string, number]> = { '1': ['#ff0000', 0], '2': ['#00ff00', 1], '3': ['#0000ff', 2] };

/** The voxel coordinate of physical place `p` along `axis`. */
const voxel = (axis: Axis, p: number): number => (p - ORIGIN[2 - axis]!) / SPACING[2 - axis]!;

function boxesNpy(): Buffer {
  const [nz, ny, nx] = SHAPE;
  const data = new Uint8Array(nz * ny * nx);
  for (const [id, [[x0, x1], [y0, y1], [z0, z1]]] of Object.entries(BOXES))
    for (let z = z0; z <= z1; z++) for (let y = y0; y <= y1; y++) data.fill(Number(id), (z * ny + y) * nx + x0, (z * ny + y) * nx + x1 + 1);
  return npyBytes({ descr: '|u1', shape: [...SHAPE], data });
}

/**
 * A view straight along an axis: Neuroglancer's projection orientation (x, y, z, w), and the
 * axes its screen's right and down show. Neuroglancer's camera looks along +z with +y down
 * under the identity, so a quarter turn about x looks along -y with +z down.
 */
interface View {
  name: string;
  orientation: number[];
  right: Axis;
  down: Axis;
}
const VIEWS: View[] = [
  { name: 'down-z', orientation: [0, 0, 0, 1], right: 0, down: 1 },
  { name: 'along-y', orientation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2], right: 0, down: 2 },
];

let host: RunningHost;
let browser: Browser;
let neuroglancer: NeuroglancerPage;

beforeAll(async () => {
  neuroglancer = await serveNeuroglancer();
  [host, browser] = await Promise.all([
    spawnFixtureHost(['--pool-size', '1', '--no-viewer', '--cors-origin', new URL(neuroglancer.url).origin]),
    fileBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await neuroglancer?.close();
});

type Layer = { name: string; segments?: string[]; segmentColors?: Record<string, string> };
type State = { layers: Layer[]; position?: number[]; projectionScale?: number } & Record<string, unknown>;

/** Neuroglancer opened on `state` (in the URL's fragment), once it says every layer is drawn and its meshes are in, looking as `orientation` says. */
async function opened(page: Page, state: State, orientation: number[]): Promise<PNG> {
  await page.goto(`${neuroglancer.url}#!${encodeURIComponent(JSON.stringify(state))}`);
  await page.waitForFunction(
    (expected) => {
      type Viewer = { layerManager: { managedLayers: unknown[] }; isReady(): boolean; projectionOrientation: { orientation: Float32Array } };
      const viewer = (window as unknown as { viewer?: Viewer }).viewer;
      // The same page takes the next state as a change of its fragment: wait until it looks the new way.
      const turned = viewer?.projectionOrientation.orientation.every((q, i) => Math.abs(q - expected[i]!) < 1e-6);
      return viewer !== undefined && turned && viewer.layerManager.managedLayers.length === 1 && viewer.isReady();
    },
    orientation,
    { timeout: STATE_WAIT_MS, polling: 100 },
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return PNG.sync.read(await page.screenshot());
}

/** The 3-D view's box on the page. */
function perspectiveBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  return page.evaluate(() => {
    const viewer = (window as unknown as { viewer: { display: { panels: Set<{ element: HTMLElement; constructor: { name: string } }> } } }).viewer;
    const panel = [...viewer.display.panels].find((p) => p.constructor.name === 'PerspectivePanel')!;
    const box = panel.element.getBoundingClientRect();
    return { x: box.x, y: box.y, width: box.width, height: box.height };
  });
}

/**
 * The largest patch of pixels of `box` drawn in `channel` alone (a pure red, green or blue,
 * whatever its shading; the view's small axis legend in the same colours is another patch):
 * its count and bounds (the last pixel's far edge), in page pixels.
 */
function patchOf(png: PNG, box: { x: number; y: number; width: number; height: number }, channel: number) {
  const [x0, y0, x1, y1] = [Math.ceil(box.x), Math.ceil(box.y), Math.floor(box.x + box.width), Math.floor(box.y + box.height)];
  const inColour = (x: number, y: number): boolean => {
    const i = (y * png.width + x) * 4;
    const own = png.data[i + channel]!;
    return own >= 64 && [0, 1, 2].every((c) => c === channel || png.data[i + c]! <= own / 4);
  };
  const seen = new Set<number>();
  let best = { count: 0, min: [0, 0], max: [0, 0] };
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) {
      if (seen.has(y * png.width + x) || !inColour(x, y)) continue;
      // One patch: the pixels of the colour reachable from this one, a step at a time along a row or column.
      const patch = { count: 0, min: [x, y], max: [x + 1, y + 1] };
      const todo = [[x, y]];
      seen.add(y * png.width + x);
      for (let next = todo.pop(); next; next = todo.pop()) {
        const [px, py] = next as [number, number];
        patch.count++;
        patch.min = [Math.min(patch.min[0]!, px), Math.min(patch.min[1]!, py)];
        patch.max = [Math.max(patch.max[0]!, px + 1), Math.max(patch.max[1]!, py + 1)];
        for (const [nx, ny] of [[px + 1, py], [px - 1, py], [px, py + 1], [px, py - 1]] as const) {
          if (nx < x0 || nx >= x1 || ny < y0 || ny >= y1 || seen.has(ny * png.width + nx) || !inColour(nx, ny)) continue;
          seen.add(ny * png.width + nx);
          todo.push([nx, ny]);
        }
      }
      if (patch.count > best.count) best = patch;
    }
  return best;
}

describe('a stock Neuroglancer and levels of detail', () => {
  it("draws three segments' surfaces from the room's state at their voxels' place, within a voxel", async () => {
    const room = freshRoom('ng-meshes');
    const query = `filename=boxes.npy&role=labels&spacing=${SPACING.join(',')}&origin=${ORIGIN.join(',')}&unit=micrometer`;
    const put = await fetch(`${host.url}/api/specimens/boxes?${query}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(boxesNpy()),
    });
    expect(put.status).toBe(201);
    const scene = await fetch(`${host.url}/api/rooms/${room}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ layers: [{ id: 'boxes', source: { specimen: 'boxes' }, kind: 'labels' }] }),
    });
    expect(scene.status).toBe(200);
    const computed = async () => (((await (await fetch(`${host.url}/api/rooms/${room}/scene`)).json()) as RoomScene).layers[0]?.result ? true : undefined);
    await waitFor(computed, 'the labels layer to be computed');
    const state = (await (await fetch(`${host.url}/api/rooms/${room}/neuroglancer`)).json()) as State;
    const labels = state.layers[0]!;
    expect(labels.segments).toEqual(['1', '2', '3']);
    // The room's state frames the view: its position (the scene's middle) and scale (units a view's height shows).
    const { position, projectionScale } = state;
    expect(position).toHaveLength(3);
    expect(projectionScale).toBeGreaterThan(0);
    const context = await browser.newContext({ viewport: { width: 640, height: 480 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (answer) => {
      if (answer.status() >= 400 && !/\/(zarr\.json|\.zarray)$/.test(answer.url())) console.log(`page got ${answer.status()} for ${answer.url()}`);
    });
    const segmentColors = Object.fromEntries(Object.entries(COLOURS).map(([id, [colour]]) => [id, colour]));
    for (const view of VIEWS) {
      // The 3-D view alone, orthographic, with nothing drawn in it but the surfaces (no slices, axis lines, bounds or scale bar).
      const looking: State = {
        ...state,
        layout: { type: '3d', orthographicProjection: true },
        projectionOrientation: view.orientation,
        showSlices: false,
        showAxisLines: false,
        showDefaultAnnotations: false,
        showScaleBar: false,
        selectedLayer: { visible: false },
        layers: [{ ...labels, segmentColors: { ...labels.segmentColors, ...segmentColors } }],
      };
      const png = await opened(page, looking, view.orientation);
      await shot(page, `neuroglancer-meshes-${view.name}`);
      const box = await perspectiveBox(page);
      // Orthographic: the view's height shows projectionScale units, its middle at the state's position.
      const perPixel = projectionScale! / box.height;
      const middle = [box.x + box.width / 2, box.y + box.height / 2];
      for (const [id, [, channel]] of Object.entries(COLOURS)) {
        const drawn = patchOf(png, box, channel);
        const faces = ([view.right, view.down] as const).map((axis, screen) => {
          const toVoxel = (pixel: number) => voxel(axis, position![axis]! + (pixel - middle[screen]!) * perPixel);
          const [first, last] = BOXES[id]![axis];
          // The box's faces lie half a voxel outside its first and last voxels' centres.
          const got = [toVoxel(drawn.min[screen]!), toVoxel(drawn.max[screen]!)];
          return { axis: 'xyz'[axis]!, want: [first - 0.5, last + 0.5], got, size: (last - first + 1) * SPACING[2 - axis]! };
        });
        const area = (faces[0]!.size * faces[1]!.size) / perPixel ** 2;
        const told = faces.map(({ axis, want, got }) => `${axis} voxels ${got.map((v) => v.toFixed(2)).join('..')} (box ${want.join('..')})`);
        console.log(`${view.name}: segment ${id}: ${drawn.count} pixels of ${Math.round(area)}; ${told.join(', ')}`);
        // Its pixels fill its box's face (a few on the edges blend with the background)...
        expect(drawn.count, `${view.name}: segment ${id}'s pixels`).toBeGreaterThan(0.8 * area);
        // ...and their bounds are its box's, within a voxel.
        for (const { axis, want, got } of faces)
          for (const end of [0, 1]) {
            const face = `${view.name}: segment ${id}'s ${axis} ${end ? 'last' : 'first'} face, in voxels`;
            expect(Math.abs(got[end]! - want[end]!), face).toBeLessThanOrEqual(1);
          }
      }
    }
    await context.close();
    expect(errors).toEqual([]);
  });
});
