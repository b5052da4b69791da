/**
 * A function from the viewer's Functions list runs as a job, as a dynamic specimen does: its
 * progress shows in the job panel (bar, latest text, log) and on the stage, Cancel stops the
 * job on the host, and a run to the end fills the bar and draws the result. The page starts it
 * with `POST /api/processing/functions/{name}/start`, never `/invoke`.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { DRAW_SCALE, openPage, shot, textOf, waitForState, waitForText } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

let host: RunningHost;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [host, browser] = await Promise.all([
    (async () => spawnHost(['--port', '0', '--plugins', await fixturePluginsDir(), '--specimens', 'none', '--pool-size', '1']))(),
    fileBrowser(DRAW_SCALE),
  ]);
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const JOB = '[data-testid=job-state]';

/** Sets one number parameter of the panel as a user does (the change asks for it at once). */
async function setParam(page: Page, name: string, value: string): Promise<void> {
  await page.fill(`[data-param=${name}] input[type=number]`, value);
  await page.press(`[data-param=${name}] input[type=number]`, 'Enter');
}

/** Opens the viewer in a room of its own and runs `steps` from the Functions list. */
async function openSteps(): Promise<{ page: Page; requests: Request[] }> {
  const { page, requests } = await openPage(browser, contexts, `${host.url}/?room=${room('fn-jobs')}`);
  await page.click('[data-testid=functions] .fn-item[data-name=steps]');
  await waitForText(page, '[data-testid=specimen-title]', 'steps');
  await page.waitForSelector('[data-testid=params] [data-param=count]');
  return { page, requests };
}

const paths = (requests: Request[]) => requests.map((r) => `${r.method()} ${new URL(r.url()).pathname}`);

describe('a function from the Functions list', () => {
  it('runs as a job: progress bar and text while it runs, and Cancel stops it on the host', async () => {
    const { page, requests } = await openSteps();
    await setParam(page, 'delay_ms', '100');
    await setParam(page, 'count', '300');
    await waitForState(page, JOB, ['running']);
    await page.waitForSelector('[data-testid=progress-log] li[data-seq="2"]');
    expect(await textOf(page, '[data-testid=progress-text]')).toMatch(/^step \d+\/300$/);
    const filled = Number(await page.getAttribute('[data-testid=progress-bar]', 'aria-valuenow'));
    expect(filled).toBeGreaterThanOrEqual(0);
    expect(filled).toBeLessThan(100);
    expect(await page.locator('[data-testid=cancel]').isEnabled()).toBe(true);
    expect(await textOf(page, '[data-testid=stage-message] .pill')).toMatch(/^step \d+\/300$/);
    await shot(page, 'function-job-running');

    const jobId = await textOf(page, '[data-testid=job-id]');
    expect(jobId).not.toBe('');
    await page.click('[data-testid=cancel]');
    await waitForState(page, JOB, ['cancelled']);
    expect(await page.locator('[data-testid=cancel]').isDisabled()).toBe(true);
    await shot(page, 'function-job-cancelled');
    const ended = await waitFor(async () => {
      const body = (await (await fetch(`${host.url}/api/jobs/${jobId}/progress`)).json()) as { status: string; messages: unknown[] };
      return body.status === 'running' ? undefined : body;
    }, `job ${jobId} to end on the host`);
    expect(ended).toMatchObject({ status: 'error', error: 'cancelled' });
    expect(ended.messages.length).toBeLessThan(300);

    expect(paths(requests)).toContain('POST /api/processing/functions/steps/start');
    expect(paths(requests).filter((p) => p.endsWith('/api/processing/invoke'))).toEqual([]);
  });

  it('runs to the end: every message in the log, the bar full, the result drawn', async () => {
    const { page } = await openSteps();
    await setParam(page, 'count', '5');
    // The defaults ran first (three steps); the fifth message is this run's.
    await page.waitForSelector('[data-testid=progress-log] li[data-seq="4"]');
    expect(await waitForState(page, JOB, ['done'])).toBe('done');
    expect(await textOf(page, '[data-testid=progress-text]')).toBe('Computed.');
    expect(await page.locator('[data-testid=progress-log] li').allTextContents()).toEqual(['0step 1/5', '1step 2/5', '2step 3/5', '3step 4/5', '4step 5/5']);
    expect(await page.getAttribute('[data-testid=progress-bar]', 'aria-valuenow')).toBe('100');
    await waitForText(page, '[data-testid=stats] [data-stat=triangles] dd', '2');
    expect(await textOf(page, '[data-testid=job-id]')).not.toBe('');
  });
});
