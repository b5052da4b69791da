/**
 * @module agent.bench
 * The agent socket's executor departures at full count: a thousand executors, ten rooms at once,
 * each leaving (its socket cut) at a seeded random moment of a headset tool call made over MCP;
 * how long after each departure its call ends, against the rule's one second, with the round
 * trip of an answered call on the same host as the baseline.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { connectAgent } from '../helpers/agent-client.ts';
import { room } from '../helpers/room.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { spawnHost } from '../helpers/spawn-host.ts';

type Answer = { content: { text?: string }[] };


const quantile = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const figures = (ms: number[]) => `p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const host = await spawnHost(['--port', '0', '--log-level', 'warn']);
  const mcp = new Client({ name: 'agent-bench', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`)));
  const call = (r: string) => mcp.callTool({ name: 'remove_specimen', arguments: { room: r, index: 0 } }) as Promise<Answer>;
  const random = seededRandom(70);
  const lateness: number[] = [];
  const answered: number[] = [];
  let disconnected = 0;
  const lane = async (r: string) => {
    for (let i = 0; i < 100; i++) {
      const executor = await connectAgent(host.url, r);
      // Baseline: a call its executor answers.
      const asked = performance.now();
      const done = call(r);
      const toolCall = await executor.next((f) => f.type === 'tool_call');
      executor.send({ type: 'tool_result', request_id: toolCall.request_id, result: { ok: true } });
      await done;
      answered.push(performance.now() - asked);
      const answer = call(r);
      if (random() < 0.5) await executor.next((f) => f.type === 'tool_call');
      for (let turns = Math.floor(random() * 20); turns > 0; turns--) await new Promise(setImmediate);
      const left = performance.now();
      executor.socket.terminate();
      const text = (await answer).content[0]?.text ?? '';
      lateness.push(performance.now() - left);
      if (text.includes('disconnected before replying')) disconnected++;
      await executor.closed;
    }
  };
  await Promise.all(Array.from({ length: 10 }, () => lane(room('agent-bench'))));
  await mcp.close();
  await host.stop();
  const late = lateness.filter((ms) => ms > 1000).length;
  return {
    name: 'agent: executors leaving mid-call',
    lines: [
      `${lateness.length} departures (${disconnected} after the call reached the executor):`,
      `  call ended ${figures(lateness)} after the departure; ${late} past 1 s`,
      `baseline, a call its executor answers: ${figures(answered)}`,
    ],
  };
}
