/**
 * @module agent-panel.test
 * Two headsets and a page in one room talk to one agent, in Debian's Chromium against a host
 * process whose model is a scripted chat-completions server on loopback. The page (following the
 * room) types a turn in its Agent panel; the agent computes a volume and loads it on the
 * executor (the oldest headset, which answers as the client does). Every socket, the page's own
 * socket read off the wire, sees the same frames in the same order, and the page's conversation
 * is the room's log: its own turn (credited to the page's `?name=`), a headset's, the agent's
 * replies, each once; the status line is cleared when the reply ends.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { connectAgent, type Frame } from '../helpers/agent-client.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { DRAW_SCALE, openPage } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

let model: ScriptedModel;
let host: HostProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  model = await startScriptedModel('openai');
  [host, browser] = await Promise.all([
    startHost(['--agent-model', 'scripted', '--agent-provider', 'openai', '--agent-url', model.url]),
    fileBrowser(DRAW_SCALE),
  ]);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await model?.close();
});

type Entry = { seq: number; by: string; name?: string; type: string; role?: string; text?: string; op?: string };

/** The lines the page's panel shows: role, who, text. */
const panelLines = (page: Page) =>
  page.$$eval('[data-testid=agent-transcript] li', (items) =>
    items.map((li) => [li.getAttribute('data-role'), li.getAttribute('data-by'), li.getAttribute('data-text')]),
  );

describe('the Agent panel beside the room', () => {
  it('shares one conversation between two headsets and a page, frame for frame, matching the log', async () => {
    const r = room('panel');
    let loadId = '';
    model.answer((request) => {
      const result = request.toolResults[0]?.text ?? '';
      if (request.lastUserText === 'hello from the headset') return { text: ['Hello, headset.'] };
      if (request.toolResults.length === 0) return { text: ['Computing. '], calls: [{ name: 'compute', args: { function: 'density', params: { size: 16 } } }] };
      if (result.includes('"load_id"')) {
        loadId = (JSON.parse(result) as { load_id: string }).load_id;
        return { calls: [{ name: 'load_specimen', args: { specimen_id: loadId } }] };
      }
      return { text: ['It is ', 'in every headset.'] };
    });
    const executor = await connectAgent(host.baseUrl, r);
    executor.headset();
    const headset = await connectAgent(host.baseUrl, r);
    headset.send({ type: 'text', text: 'hello from the headset' });
    await headset.next((f) => f.type === 'agent_text_done');

    const { page } = await openPage(browser, contexts, 'about:blank');
    const wire: Frame[] = [];
    page.on('websocket', (socket) => {
      if (!socket.url().includes('/ws/agent/')) return;
      socket.on('framereceived', (f) => typeof f.payload === 'string' && void wire.push(JSON.parse(f.payload) as Frame));
    });
    await page.goto(`${host.baseUrl}/${viewerQuery({ specimen: 'cube', room: r, follow: true, extra: { name: 'Ada' } })}`);
    await page.waitForSelector('[data-testid=agent-transcript] li[data-role=agent]', { timeout: STATE_WAIT_MS });
    await waitFor(() => (wire.some((f) => f.type === 'history') ? true : undefined), 'the page’s history frame');
    await page.fill('[data-testid=agent-input]', 'compute a density and load it');
    await page.click('[data-testid=agent-send]');

    // The page's turn is the second reply the headsets hear, the first its socket hears.
    const replies = (frames: Frame[]) => frames.filter((f) => f.type === 'agent_text_done').length;
    const done = (frames: () => Frame[], n: number) => waitFor(() => (replies(frames()) >= n ? true : undefined), 'the reply');
    await Promise.all([done(() => executor.frames(), 2), done(() => headset.frames(), 2), done(() => wire, 1)]);
    // From the page's turn on, every socket received the very same frames in the same order.
    const turn = (frames: Frame[]) => frames.slice(frames.findLastIndex((f) => f.type === 'status' && f.text === 'thinking'));
    const seen = turn(wire);
    expect(seen.map((f) => f.type)).toEqual(['status', 'agent_text', 'status', 'status', 'tool_call', 'agent_text', 'agent_text', 'agent_text_done']);
    expect(turn(executor.frames())).toEqual(seen);
    expect(turn(headset.frames())).toEqual(seen);
    const call = seen.find((f) => f.type === 'tool_call');
    expect(call).toMatchObject({ name: 'load_specimen', args: { specimen_id: loadId, type: 'volume' }, executor: executor.clientId });

    // The page's conversation is the log's.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=agent-transcript] li').length === 4, null, { timeout: STATE_WAIT_MS });
    const log = ((await (await fetch(`${host.baseUrl}/api/rooms/${r}/log`)).json()) as { entries: Entry[] }).entries;
    const said = log.filter((e) => e.type === 'conversation').map((e) => [e.role, e.name ?? e.by, e.text]);
    expect(await panelLines(page)).toEqual(said);
    // The page's turn is its signed-out visitor's, credited to the name the page gave.
    expect(log.find((e) => e.text === 'compute a density and load it')).toMatchObject({ by: 'anonymous', name: 'Ada' });
    expect((await panelLines(page))[2]![1]).toBe('Ada');
    // The reply is over: nothing says the agent is still thinking or using a tool.
    await page.waitForFunction(() => document.querySelector('[data-testid=agent-status]')?.textContent === '', null, { timeout: STATE_WAIT_MS });
    const texts = ['hello from the headset', 'Hello, headset.', 'compute a density and load it', 'Computing. It is in every headset.'];
    expect(said.map((line) => line[2])).toEqual(texts);
    await Promise.all([executor.close(), headset.close()]);
  });
});
