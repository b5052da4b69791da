/**
 * @module python-ask.test
 * `room.ask("...")` from the notebook client (a real interpreter, its standard library's own
 * WebSocket handshake and frames) against a real host process whose model is a scripted
 * chat-completions server on loopback: the reply comes back as text, the turn is the room's
 * (a headset in the room hears the reply stream, the log has the notebook's turn), a turn queued
 * behind another gets its own reply, and a host without a model raises its words.
 */
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { connectAgent } from '../helpers/agent-client.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel } from '../helpers/scripted-model.ts';
import { killAllHosts } from '../helpers/spawn-host.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';
import { waitFor } from '../helpers/wait-for.ts';

afterAll(killAllHosts);

type Entry = { type: string; role?: string; text?: string };
const logOf = async (url: string, r: string) => ((await (await fetch(`${url}/api/rooms/${r}/log`)).json()) as { entries: Entry[] }).entries;

function python(script: string, url: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1', VITRINE_URL: url };
    execFile(TEST_PYTHON, ['-c', script], { env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('room.ask from the notebook client', () => {
  it('answers the agent’s reply, in the room everyone shares', async () => {
    const model = await startScriptedModel('openai');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    model.answer((request) =>
      request.lastUserText === 'first, from a headset' ? { text: ['Headset first.'], hold: held } : { text: ['You asked: ', request.lastUserText] },
    );
    const host = await spawnFixtureHost(['--agent-model', 'scripted', '--agent-provider', 'openai', '--agent-url', model.url]);
    const r = room('ask');
    const headset = await connectAgent(host.url, r);
    const asked = await python(
      `import os, vitrine\nroom = vitrine.Client(os.environ["VITRINE_URL"]).room(${JSON.stringify(r)})\nprint(room.ask("what is here?", name="ada"))`,
      host.url,
    );
    expect(asked).toEqual({ code: 0, output: 'You asked: what is here?\n' });
    expect((await headset.next((f) => f.type === 'agent_text_done')).type).toBe('agent_text_done');
    expect(headset.frames().filter((f) => f.type === 'agent_text').map((f) => f.text)).toEqual(['You asked: ', 'what is here?']);
    expect((await logOf(host.url, r)).filter((e) => e.type === 'conversation').map((e) => [e.role, e.text])).toEqual([
      ['user', 'what is here?'],
      ['agent', 'You asked: what is here?'],
    ]);

    // A turn queued behind a headset's gets its own reply, not the one before it.
    headset.send({ type: 'text', text: 'first, from a headset' });
    await headset.next((f) => f.type === 'status' && f.text === 'thinking');
    const queued = python(
      `import os, vitrine\nroom = vitrine.Client(os.environ["VITRINE_URL"]).room(${JSON.stringify(r)})\nprint(room.ask("second?"))`,
      host.url,
    );
    // Its turn is in (logged as it arrives) while the headset's still runs.
    await waitFor(async () => ((await logOf(host.url, r)).some((e) => e.text === 'second?') ? true : undefined), 'the notebook’s turn queued');
    release();
    expect(await queued).toEqual({ code: 0, output: 'You asked: second?\n' });
    await headset.close();
    await host.stop();
    await model.close();
  });

  it('raises the host’s words when it has no model', async () => {
    const host = await spawnFixtureHost([]);
    const script = [
      'import os, vitrine',
      'try:',
      `    vitrine.Client(os.environ["VITRINE_URL"]).room(${JSON.stringify(room('ask'))}).ask("anyone?")`,
      'except vitrine.VitrineError as error:',
      '    print("refused:", error.detail)',
    ].join('\n');
    expect(await python(script, host.url)).toEqual({ code: 0, output: 'refused: no agent model is configured on this host\n' });
    await host.stop();
  });
});
