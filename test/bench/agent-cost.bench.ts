/**
 * @module agent-cost.bench
 * What a room's conversation sends its provider: one socket types 30 turns of about 1 MiB each to
 * a host with the example plugins and a scripted chat-completions server on loopback. Prints the
 * tool definitions' bytes of one request, the bytes sent over the 30 turns, the bound they must
 * keep (30 × (--agent-context-bytes + the request's tools and system words)), and beside them what
 * requests carrying the whole conversation (no bound) would have sent.
 */
import { connectAgent } from '../helpers/agent-client.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel } from '../helpers/scripted-model.ts';
import { spawnHost } from '../helpers/spawn-host.ts';

const TURNS = 30;
/** The conversation sent per request (--agent-context-bytes' default). */
const CONTEXT_BYTES = 1024 * 1024;
/** A turn's text: 1 MiB less room for the frame's JSON (a text frame is at most 1 MiB). */
const TURN_CHARS = 1024 * 1024 - 256;

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const model = await startScriptedModel('openai');
  model.answer(() => ({ text: ['ok'] }));
  const agent = ['--agent-model', 'scripted', '--agent-provider', 'openai', '--agent-url', model.url];
  const host = await spawnHost(['--port', '0', '--log-level', 'warn', '--no-viewer', ...agent]);
  try {
    const client = await connectAgent(host.url, room('agent-cost'));
    for (let i = 0; i < TURNS; i++) {
      client.send({ type: 'text', text: `${i} ${'w'.repeat(TURN_CHARS)}` });
      await client.next((f) => f.type === 'agent_text_done', `turn ${i}`);
    }
    await client.close();
    const requests = model.requests;
    const first = requests[0]!;
    const tools = Buffer.byteLength(JSON.stringify(first.body.tools));
    // What a request adds besides the conversation: the tools, the system words, the framing.
    const fixed = first.bytes - TURN_CHARS;
    const sent = requests.reduce((sum, r) => sum + r.bytes, 0);
    const bound = TURNS * (CONTEXT_BYTES + fixed);
    // Without the bound, request k carries all k turns (and k − 1 short replies).
    const unbounded = Array.from({ length: TURNS }, (_, k) => fixed + (k + 1) * TURN_CHARS + k * 64).reduce((a, b) => a + b, 0);
    return {
      name: 'agent: bytes sent to the provider',
      lines: [
        `tool definitions: ${tools.toLocaleString('en')} bytes a request (${first.body.tools ? (first.body.tools as unknown[]).length : 0} tools)`,
        `${TURNS} turns of 1 MiB: ${mb(sent)} sent in ${requests.length} requests, largest ${mb(Math.max(...requests.map((r) => r.bytes)))}`,
        `bound, ${TURNS} × (--agent-context-bytes + tools and system): ${mb(bound)} (${sent <= bound ? 'within' : 'PAST IT'})`,
        `unbounded (each request carrying the whole conversation): ${mb(unbounded)}, ${(unbounded / sent).toFixed(1)}× what was sent`,
      ],
    };
  } finally {
    await host.stop();
    await model.close();
  }
}
