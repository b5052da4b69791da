/**
 * An agent drives a room that a page follows: the MCP SDK's own client, over Streamable HTTP,
 * lists the tools and calls `compute` for an example function in room `lab`; the web viewer
 * following `lab` in Chromium shows that result (its panel and triangle count), learnt from
 * the room's event stream. A volume published while the page is open and shown to the room
 * appears on it too, though the page did not list it when it loaded.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { DRAW_SCALE, shot, waitForState, waitForText } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

let host: HostProcess;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  [host, browser] = await Promise.all([startHost(), fileBrowser(DRAW_SCALE)]);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await host?.close();
});

describe('an agent over MCP and a following page', () => {
  it('compute from the SDK client in room lab shows on the page that follows lab', async () => {
    const lab = room('lab');
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${host.baseUrl}/${viewerQuery({ specimen: 'shape', room: lab, params: { segments: 8 }, follow: true })}`);
    expect(await waitForState(page, '[data-testid=job-state]', ['done', 'cached'])).toMatch(/done|cached/);
    await waitForText(page, '[data-testid=stats] [data-stat=triangles] dd', '128');
    await page.waitForSelector('.follow[data-stream=open]');

    const client = new Client({ name: 'agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${host.baseUrl}/mcp`)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('compute');
    const answer = (await client.callTool({ name: 'compute', arguments: { function: 'shape', params: { segments: 5 }, room: lab } })) as {
      structuredContent?: Record<string, unknown>;
    };
    expect(answer.structuredContent).toMatchObject({ type: 'mesh', triangles: 50, function_name: 'shape', room: lab });
    await client.close();

    await waitForText(page, '[data-testid=stats] [data-stat=triangles] dd', '50');
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('[data-param=segments] input[type=number]')?.value === '5', undefined, {
      timeout: STATE_WAIT_MS,
    });
    await shot(page, 'mcp-follow');
  }, 120_000);

  it('a volume published and shown in the room appears on a page that did not list it', async () => {
    const lab = room('lab');
    context ??= await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${host.baseUrl}/${viewerQuery({ specimen: 'shape', room: lab, follow: true })}`);
    await waitForState(page, '[data-testid=job-state]', ['done', 'cached']);
    await page.waitForSelector('.follow[data-stream=open]');

    const id = `scan-${randomUUID().slice(0, 8)}`;
    const published = await fetch(`${host.baseUrl}/api/specimens/${id}?filename=scan.npy`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(npyBytes([6, 4, 5])),
    });
    expect(published.status).toBe(201);
    const shown = await fetch(`${host.baseUrl}/api/rooms/${lab}/entry`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ specimen: id }),
    });
    expect(shown.status).toBe(200);
    await waitForText(page, '[data-testid=stats] [data-stat=shape] dd', '6 × 4 × 5');
    expect(new URL(page.url()).searchParams.get('specimen')).toBe(id);
    await shot(page, 'published-follow');
  }, 120_000);
});
