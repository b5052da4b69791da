/**
 * The least a relay of a model's reply to a room can do, as the physical bound beside the agent
 * socket's fan-out: a plain `ws` server (any path) whose sockets all share one room. A `text`
 * frame from any of them is one streamed `POST /v1/messages` to the Anthropic-speaking server at
 * the last argument, read as Server-Sent Events by hand; each text piece becomes one `agent_text` frame,
 * made once and written to every socket, and the end of the stream one `agent_text_done`. No
 * client library, no conversation, no record. A socket hears `history` when it joins, as on a
 * host. Prints `listening on <url>` once it listens.
 */
import http from 'node:http';
import { WebSocketServer } from 'ws';

const model = new URL('/v1/messages', process.argv.at(-1));
const room = new Set();
let nextId = 1;
const toRoom = (frame) => {
  const text = JSON.stringify(frame);
  for (const socket of room) socket.send(text);
};

/** One reply: each SSE event's data read as it comes, its text pieces sent on at once. */
function reply(words) {
  const body = JSON.stringify({ model: 'bench', max_tokens: 10, stream: true, messages: [{ role: 'user', content: words }] });
  const request = http.request(model, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
    let pending = '';
    response.setEncoding('utf8');
    response.on('data', (chunk) => {
      const events = (pending + chunk).split('\n\n');
      pending = events.pop();
      for (const event of events) {
        const data = event.split('\n').find((line) => line.startsWith('data: '));
        const parsed = data ? JSON.parse(data.slice(6)) : null;
        if (parsed?.delta?.type === 'text_delta') toRoom({ type: 'agent_text', text: parsed.delta.text });
      }
    });
    response.on('end', () => toRoom({ type: 'agent_text_done' }));
  });
  request.end(body);
}

const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
server.on('connection', (socket) => {
  socket.send(JSON.stringify({ type: 'history', entries: [], client_id: nextId++ }));
  room.add(socket);
  socket.on('close', () => room.delete(socket));
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const frame = JSON.parse(data.toString('utf8'));
    if (frame.type === 'text') reply(frame.text);
  });
});
server.on('listening', () => process.stdout.write(`listening on ws://127.0.0.1:${server.address().port}\n`));
