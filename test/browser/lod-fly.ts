/**
 * @module lod-fly
 * A scripted fly-through of surfaces drawn from their levels of detail, for the browser test
 * and `npm run bench meshes`: a page that follows a room flies along a path of the room's
 * shared camera (into the surfaces and back out), step by step; in a VR session (IWER) the headset walks up to the specimen and
 * back. Between steps it waits for frames to be drawn, never for a time. What the layers drew
 * is read from `window.vitrineLod` (viewer/layers/mesh/lod-probe.ts).
 */
import type { Page } from 'playwright-core';
import type { LodProbeLayer } from '../../viewer/layers/mesh/lod-probe.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

export type { LodProbeLayer };

/** The figures of every layer drawn from levels. */
export function lodLayers(page: Page): Promise<LodProbeLayer[]> {
  return page.evaluate(() => window.vitrineLod?.layers() ?? []);
}

/** Waits until `count` layers have drawn their first picture (every shown surface's coarsest level). */
export async function firstPictures(page: Page, count: number, timeout = STATE_WAIT_MS): Promise<LodProbeLayer[]> {
  await page.waitForFunction((n) => (window.vitrineLod?.layers() ?? []).filter((layer) => layer.firstPictureAt !== null).length >= n, count, {
    timeout,
  });
  return lodLayers(page);
}

/** Waits until the stage (page or session) has drawn `count` more frames. */
async function frames(page: Page, count: number): Promise<void> {
  const drawn = () => Number(document.querySelector<HTMLCanvasElement>('canvas.stage-canvas')?.dataset.frames ?? 0);
  const from = await page.evaluate(drawn);
  await page.waitForFunction(
    ([n]) => Number(document.querySelector<HTMLCanvasElement>('canvas.stage-canvas')?.dataset.frames ?? 0) >= n!,
    [from + count] as const,
    { timeout: STATE_WAIT_MS },
  );
}

/** A camera of the room's view (`PUT /api/rooms/{room}/view`): where it is and what it looks at. */
export type RoomCamera = { position: [number, number, number]; target: [number, number, number]; up: [number, number, number] };

/**
 * Moves a page that follows `room` along `path` (camera positions looking at `target`) through
 * the room's shared camera, and back: each step once the page has taken it and drawn a few frames.
 */
export async function flyPage(page: Page, base: string, room: string, path: [number, number, number][], target: [number, number, number]): Promise<void> {
  const state = () => {
    const canvas = document.querySelector<HTMLCanvasElement>('canvas.stage-canvas');
    return { camera: canvas?.dataset.roomCamera ?? '', frames: Number(canvas?.dataset.frames ?? 0) };
  };
  for (const position of [...path, ...[...path].reverse().slice(1)]) {
    const before = await page.evaluate(state);
    const camera: RoomCamera = { position, target, up: [0, 1, 0] };
    const response = await fetch(`${base}/api/rooms/${encodeURIComponent(room)}/view`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ camera }),
    });
    if (!response.ok) throw new Error(`PUT view: ${response.status} ${await response.text()}`);
    // Taken, and drawn (a page draws on demand: once for the move, again as fragments come).
    await page.waitForFunction(
      (was) => {
        const canvas = document.querySelector<HTMLCanvasElement>('canvas.stage-canvas');
        return (canvas?.dataset.roomCamera ?? '') !== was.camera && Number(canvas?.dataset.frames ?? 0) > was.frames;
      },
      before,
      { timeout: STATE_WAIT_MS },
    );
  }
}

/** `steps` + 1 points from `from` to `to`, evenly spaced. */
export function line(from: [number, number, number], to: [number, number, number], steps: number): [number, number, number][] {
  return Array.from({ length: steps + 1 }, (_, k) => from.map((v, a) => v + ((to[a]! - v) * k) / steps) as [number, number, number]);
}

/** Walks the emulated headset from `from` to `to` (room metres) in `steps` steps and back, a few session frames each. */
export async function flyHeadset(page: Page, from: [number, number, number], to: [number, number, number], steps: number): Promise<void> {
  const path = line(from, to, steps);
  for (const at of [...path, ...[...path].reverse()]) {
    await page.evaluate((p) => (window as unknown as { xrDevice: { position: { set(...a: number[]): void } } }).xrDevice.position.set(...p), at);
    await frames(page, 4);
  }
}
