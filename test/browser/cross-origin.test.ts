/**
 * CORS from a real browser: a page served from another origin (another port), listed in
 * `--cors-origin`, loads an envelope, starts a job (a JSON POST, so Chromium sends a preflight
 * first) and fetches its result from the host, reading the exposed Content-Length as a
 * progress bar would. A page on an origin that is not listed can read but not write: its JSON
 * POST fails at the preflight and its body-less POST (sent without one) is refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { DRAW_SCALE } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

let host: RunningHost;
let browser: Browser;
let page: Server;
let pageUrl: string;
/** The same page server under another name: an origin the host does not list. */
let strangerUrl: string;

beforeAll(async () => {
  page = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>another origin</title><p>a page on another origin</p>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://localhost:${(page.address() as AddressInfo).port}/`;
  strangerUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
  const listed = new URL(pageUrl).origin;
  [host, browser] = await Promise.all([
    spawnFixtureHost(['--pool-size', '1', '--cors-origin', `*,${listed}`]),
    fileBrowser(DRAW_SCALE),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await new Promise((resolve) => page?.close(resolve));
});

describe('a page on another origin', () => {
  it('loads an envelope and a job result from the host', async () => {
    const tab = await browser.newPage();
    await tab.goto(pageUrl);
    const started = await tab.evaluate(async (base) => {
      const data = await fetch(`${base}/api/specimens/dyn-square/data?room_id=cors`);
      const bytes = (await data.arrayBuffer()).byteLength;
      const start = await fetch(`${base}/api/specimens/dyn-square/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { size: 3 }, room_id: 'cors' }),
      });
      const { job_id: jobId } = (await start.json()) as { job_id: string };
      return { origin: location.origin, dataStatus: data.status, contentLength: data.headers.get('content-length'), bytes, startStatus: start.status, jobId };
    }, host.url);
    // The page polls the job's progress (each poll a cross-origin read) until it ends.
    const progressOf = (jobId: string) =>
      tab.evaluate(async ([base, id]) => ((await (await fetch(`${base}/api/jobs/${id}/progress`)).json()) as { status: string }).status, [
        host.url,
        jobId,
      ] as const);
    const status = await waitFor(async () => {
      const now = await progressOf(started.jobId);
      return now === 'running' ? undefined : now;
    }, `job ${started.jobId} to end`);
    const fetched = await tab.evaluate(async ([base, jobId]) => {
      const result = await fetch(`${base}/api/jobs/${jobId}/result`);
      return { resultStatus: result.status, result: (await result.json()) as { type: string; vertices: number[] } };
    }, [host.url, started.jobId] as const);
    const seen = { ...started, status, ...fetched };
    expect(seen.origin).not.toBe(new URL(host.url).origin);
    expect(seen.dataStatus).toBe(200);
    expect(Number(seen.contentLength)).toBe(seen.bytes);
    expect(seen.startStatus).toBe(200);
    expect(seen.status).toBe('done');
    expect(seen.resultStatus).toBe(200);
    expect(seen.result.type).toBe('mesh');
    expect(Math.max(...seen.result.vertices)).toBe(3);
    await tab.close();
  });

  it('cannot write from an origin that is not listed, and can still read', async () => {
    const tab = await browser.newPage();
    await tab.goto(strangerUrl);
    await fetch(`${host.url}/api/specimens/dyn-square/data?room_id=stranger-kept`);
    const seen = await tab.evaluate(async (base) => {
      const read = await fetch(`${base}/api/specimens/`);
      let jsonPost = 'sent';
      try {
        await fetch(`${base}/api/specimens/dyn-square/start`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ room_id: 'stranger' }),
        });
      } catch {
        jsonPost = 'blocked';
      }
      // A POST without a body needs no preflight: the browser sends it, the host refuses it.
      const simple = await fetch(`${base}/api/processing/cache/clear`, { method: 'POST' });
      return { origin: location.origin, readStatus: read.status, jsonPost, simpleStatus: simple.status, simpleBody: (await simple.json()) as { code: string } };
    }, host.url);
    expect(seen.origin).toBe(new URL(strangerUrl).origin);
    expect(seen.readStatus).toBe(200);
    expect(seen.jsonPost).toBe('blocked');
    expect(seen.simpleStatus).toBe(403);
    expect(seen.simpleBody.code).toBe('SPC_ERR_CROSS_SITE_WRITE');
    const stats = (await (await fetch(`${host.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).toContain('stranger-kept');
    expect(stats.entries.map((e) => e.room_id)).not.toContain('stranger');
    await tab.close();
  });
});
