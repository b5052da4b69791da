/**
 * The least a host can do with a headset's screenshot, as the bound beside the agent's: the
 * provider's official client alone, in a process of its own as the host is, sending the picture
 * (the bytes that follow the header of the 4 MiB frame the benchmark's executor sends) to the
 * Anthropic-speaking server at the last argument, as one streamed request whose reply it reads
 * to the end. Each line `go` on standard input is one request; for each it prints
 * `asked <ms>`, the moment it began (performance.timeOrigin + performance.now(), a clock the
 * benchmark's processes share), once the reply has been read, or `failed <why>`. Prints `ready`
 * first.
 */
import { createInterface } from 'node:readline';
import Anthropic from '@anthropic-ai/sdk';

const url = process.argv.at(-1);
const header = JSON.stringify({ kind: 'screenshot', mime: 'image/jpeg' });
const jpeg = Buffer.alloc(4 * 1024 * 1024 - 4 - header.length, 7);
jpeg.set([0xff, 0xd8, 0xff], 0);
const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: url, maxRetries: 0 });

async function send() {
  const asked = performance.timeOrigin + performance.now();
  const data = jpeg.toString('base64');
  const image = { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data } };
  const stream = await client.messages.create({ model: 'bench', max_tokens: 10, stream: true, messages: [{ role: 'user', content: [image] }] });
  for await (const event of stream) void event;
  process.stdout.write(`asked ${asked}\n`);
}

let queue = Promise.resolve();
const failed = (error) => process.stdout.write(`failed ${String(error?.message ?? error).split('\n')[0]}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'go') queue = queue.then(send).catch(failed);
});
process.stdout.write('ready\n');
