/**
 * The least a host can do with a headset's screenshot when the picture must first reach it over
 * the headset's socket, as the physical bound beside the agent's: a plain `ws` server (any path)
 * in a process of its own. A socket hears `history` when it joins; its `text` frame is answered
 * with a `capture_viewport` call; its binary frame (`<u32 LE header length><JSON header><picture>`,
 * as a headset sends a screenshot) goes on to the Anthropic-speaking server at the last argument
 * through the provider's official client, one streamed request whose reply is read to the end,
 * and then the socket hears `agent_text_done`. No conversation, no tools, no record. Prints
 * `listening on <url>` once it listens.
 */
import Anthropic from '@anthropic-ai/sdk';
import { WebSocketServer } from 'ws';

const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: process.argv.at(-1), maxRetries: 0 });

/** The picture of a screenshot frame, sent to the model as the client alone sends it. */
async function forward(frame) {
  const headerLength = frame.readUInt32LE(0);
  const { mime } = JSON.parse(frame.toString('utf8', 4, 4 + headerLength));
  const data = frame.toString('base64', 4 + headerLength);
  const image = { type: 'image', source: { type: 'base64', media_type: mime, data } };
  const stream = await client.messages.create({ model: 'bench', max_tokens: 10, stream: true, messages: [{ role: 'user', content: [image] }] });
  for await (const event of stream) void event;
}

const server = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 }, () => {
  process.stdout.write(`listening on ws://127.0.0.1:${server.address().port}/\n`);
});
server.on('connection', (socket) => {
  socket.send(JSON.stringify({ type: 'history', turns: [] }));
  socket.on('message', (data, isBinary) => {
    if (!isBinary) {
      const frame = JSON.parse(data.toString('utf8'));
      if (frame.type === 'text') socket.send(JSON.stringify({ type: 'tool_call', request_id: 'shot', name: 'capture_viewport', args: {} }));
      return;
    }
    forward(data).then(
      () => socket.send(JSON.stringify({ type: 'agent_text_done' })),
      (error) => socket.send(JSON.stringify({ type: 'error', message: String(error?.message ?? error) })),
    );
  });
});
