/**
 * A following page loads a peer's result by its blob URL: the room's events name the blob,
 * the page fetches `/api/blobs/{blob_id}` (immutable, so the browser keeps it) and draws it;
 * when the room comes back to a result it has shown, the bytes come from the browser's cache
 * and the host is not asked again. The peer's own parameter changes still go through `/data`,
 * since only those change the room's entry. A followed volume still comes coarse first from the
 * room, then whole from its blob. Requests are seen through Chromium's DevTools
 * protocol, which says which of them the cache served.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { DRAW_SCALE, textOf, waitForState, waitForText } from './browser-session.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost([], DRAW_SCALE);

const JOB = '[data-testid=job-state]';
const SEGMENTS = '[data-param=segments] input[type=number]';
const stat = (key: string): string => `[data-testid=stats] [data-stat=${key}] dd`;

/** One request the page made, as the browser's network layer saw it. */
interface Seen {
  path: string;
  query: URLSearchParams;
  status: number | null;
  cacheControl: string | null;
  /** Served by the browser's memory or disk cache, without asking the host. */
  fromCache: boolean;
}

/** A page in a context of its own (its own cache), with every request it made. */
async function openPage(query: string): Promise<{ page: Page; seen: Map<string, Seen>; errors: string[] }> {
  const context = await session.browser.newContext({ viewport: { width: 1280, height: 800 } });
  session.contexts.push(context);
  const page = await context.newPage();
  const seen = new Map<string, Seen>();
  const errors: string[] = [];
  const cdp = await context.newCDPSession(page);
  cdp.on('Network.requestWillBeSent', (e) => {
    const url = new URL(e.request.url);
    seen.set(e.requestId, { path: url.pathname, query: url.searchParams, status: null, cacheControl: null, fromCache: false });
  });
  cdp.on('Network.requestServedFromCache', (e) => {
    const entry = seen.get(e.requestId);
    if (entry) entry.fromCache = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const entry = seen.get(e.requestId);
    if (!entry) return;
    entry.status = e.response.status;
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    entry.cacheControl = headers['cache-control'] ?? null;
    if (e.response.fromDiskCache) entry.fromCache = true;
  });
  await cdp.send('Network.enable');
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${session.host.baseUrl}/${query}`);
  return { page, seen, errors };
}

const blobsOf = (seen: Map<string, Seen>): Seen[] => [...seen.values()].filter((s) => s.path.startsWith('/api/blobs/'));
/** A request that computes or reads the room's cache (/data, a job's start). */
const asksTheRoom = (path: string): boolean => /^\/api\/specimens\/[^/]+\/(data|start)$/.test(path);
const pathsOf = (seen: Map<string, Seen>): string[] => [...seen.values()].map((s) => s.path);

/** The room's entry as the host states it. */
async function roomBlob(room: string): Promise<string> {
  const response = await fetch(`${session.host.baseUrl}/api/rooms/${room}/entry`);
  const entry = (await response.json()) as { blob_id?: string } | null;
  return entry?.blob_id ?? '';
}

describe('the viewer loads a peer result by its blob URL', () => {
  it('fetches the room entry by blob, draws it, and takes a revisited result from the browser cache', async () => {
    const room = freshRoom('blob');
    const first = await openPage(viewerQuery({ specimen: 'shape', room, params: { segments: 8 } }));
    expect(await waitForState(first.page, JOB, ['done', 'cached', 'error'])).toBe('done');
    await waitForText(first.page, stat('triangles'), '128');
    const blobOf8 = await roomBlob(room);
    expect(blobOf8).toMatch(/\S/);

    // A page that follows the room and names no subject shows the room's entry, by its blob.
    const second = await openPage(viewerQuery({ room, follow: true }));
    await second.page.waitForSelector('.tile[data-id=shape].selected');
    await waitForText(second.page, stat('triangles'), '128');
    expect(await waitForState(second.page, JOB, ['done', 'cached', 'error'])).toBe('cached');
    expect(await textOf(second.page, stat('vertices'))).toBe(await textOf(first.page, stat('vertices')));
    await second.page.waitForSelector('.follow[data-stream=open]');
    const [shown8] = blobsOf(second.seen);
    expect(shown8).toMatchObject({ path: `/api/blobs/${blobOf8}`, status: 200, fromCache: false });
    expect(shown8?.cacheControl).toContain('immutable');
    // It neither computed nor touched the room: no job, no /data.
    expect(pathsOf(second.seen).filter(asksTheRoom)).toEqual([]);

    // The peer moves on: its own change asks /data (the room's entry changes), the follower takes the new blob.
    await first.page.fill(SEGMENTS, '5');
    await first.page.press(SEGMENTS, 'Enter');
    await waitForText(first.page, stat('triangles'), '50');
    await waitForText(second.page, stat('triangles'), '50');
    const blobOf5 = await roomBlob(room);
    expect(blobOf5).not.toBe(blobOf8);
    expect(blobsOf(second.seen).map((s) => s.path)).toEqual([`/api/blobs/${blobOf8}`, `/api/blobs/${blobOf5}`]);

    // And back: the same result is the same blob, and the follower's browser already holds it.
    await first.page.fill(SEGMENTS, '8');
    await first.page.press(SEGMENTS, 'Enter');
    await waitForText(first.page, stat('triangles'), '128');
    await waitForText(second.page, stat('triangles'), '128');
    expect(await waitForState(second.page, JOB, ['done', 'cached', 'error'])).toBe('cached');
    expect(await roomBlob(room)).toBe(blobOf8);
    const fetched8 = blobsOf(second.seen).filter((s) => s.path === `/api/blobs/${blobOf8}`);
    // Asked again at most through the cache: only the first fetch reached the host.
    expect(fetched8.filter((s) => !s.fromCache)).toHaveLength(1);
    expect(fetched8.slice(1).every((s) => s.fromCache)).toBe(true);
    expect(pathsOf(second.seen).filter(asksTheRoom)).toEqual([]);

    // The peer's own changes never went by blob: each asked /data.
    expect(blobsOf(first.seen)).toEqual([]);
    expect(pathsOf(first.seen).filter((p) => p === '/api/specimens/shape/data').length).toBeGreaterThanOrEqual(3);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });

  it('draws a followed volume coarse from the room first, then whole from its blob', async () => {
    const room = freshRoom('blob');
    const first = await openPage(viewerQuery({ specimen: 'density', room, params: { size: 96 } }));
    expect(await waitForState(first.page, JOB, ['done', 'cached', 'error'])).toBe('done');
    await waitForText(first.page, stat('shape'), '96 × 96 × 96');
    const blob = await roomBlob(room);

    const second = await openPage(viewerQuery({ room, follow: true }));
    await second.page.waitForSelector('.tile[data-id=density].selected');
    await waitForText(second.page, stat('shape'), '96 × 96 × 96');
    expect(await waitForState(second.page, JOB, ['done', 'cached', 'error'])).toBe('cached');
    const data = [...second.seen.values()].filter((s) => s.path === '/api/specimens/density/data');
    expect(data.map((s) => s.query.get('max_dim'))).toEqual(['64']);
    expect(blobsOf(second.seen)).toMatchObject([{ path: `/api/blobs/${blob}`, status: 200 }]);
    expect(await roomBlob(room)).toBe(blob);
    expect([...first.errors, ...second.errors]).toEqual([]);
  });
});
