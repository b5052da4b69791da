/**
 * A room as a shared workspace, end to end: a Python script publishes a 256×256×128 uint16
 * volume from numpy and shows it in room `lab`; a page that follows `lab` (opened before the
 * volume existed) draws it, and a Godot headset's request for the published specimen's data
 * gets a uint8 envelope with every axis at most 256; published again with other samples, the
 * page draws those. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import { describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { publishVolumeScript, runPython, type Published } from '../helpers/python-publish.ts';
import { viewerQuery } from '../helpers/room.ts';
import { DRAW_SCALE, shot } from './browser-session.ts';
import { watchFirstFrame } from './first-frame.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost([], DRAW_SCALE);

describe('a room as a shared workspace', () => {
  it('a volume published from numpy and shown in room lab is drawn by a following page and reaches Godot as uint8', async () => {
    const page = await (await session.browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${session.host.baseUrl}/${viewerQuery({ room: 'lab', follow: true })}`);
    await page.waitForSelector('.follow[data-stream=open]');
    const firstFrame = await watchFirstFrame(page, 'A numpy volume');

    const published = await runPython<Published>(publishVolumeScript('numpy-volume', 'lab'), session.host.baseUrl);
    expect(published.entry.specimen_id).toBe('numpy-volume');
    const drawnAt = await firstFrame();
    expect(drawnAt).toBeGreaterThan(published.published_at);
    await page.waitForSelector('.tile[data-id=numpy-volume].selected');
    expect(await page.locator('[data-testid=slice-panel]').count()).toBe(1);
    // The page draws a coarse preview first, then the whole volume: its z slider spans the 128 samples.
    await page.waitForFunction(() => document.querySelector('input[data-axis=z]')?.getAttribute('max') === '127', null, { timeout: STATE_WAIT_MS });
    await shot(page, 'workspace-numpy-volume');

    const godot = await fetch(`${session.host.baseUrl}/api/specimens/numpy-volume/data`, { headers: { 'User-Agent': 'GodotEngine/4.3.stable (Linux)' } });
    expect(godot.status).toBe(200);
    expect(godot.headers.get('content-type')).toMatch(/^application\/x-[\w.+-]+-envelope-v1/);
    const decoded = decodeEnvelope(await godot.arrayBuffer());
    if (decoded.type !== 'volume') throw new Error(`expected a volume envelope, got ${decoded.type}`);
    expect(decoded.dtype).toBe('uint8');
    expect(decoded.shape).toEqual([128, 256, 256]);
    expect(Math.max(...decoded.shape)).toBeLessThanOrEqual(256);

    // Published again under the same id with other samples: the page shows the new ones.
    await runPython<unknown>(
      'import json, numpy as np, os\nfrom vitrine import Client\nprint(json.dumps(Client(os.environ["VITRINE_URL"]).publish("numpy-volume", np.full((64, ' +
      '96, 80), 7, np.uint16), display_name="A numpy volume")))',
      session.host.baseUrl,
    );
    // Coarse first again, then whole: 64 samples in z, 80 in x.
    await page.waitForFunction(
      () =>
        document.querySelector('input[data-axis=z]')?.getAttribute('max') === '63' &&
        document.querySelector('input[data-axis=x]')?.getAttribute('max') === '79',
      null,
      { timeout: STATE_WAIT_MS },
    );
    expect(errors).toEqual([]);
  });
});
