/**
 * @module agent-receivers
 * The far end of the agent benchmark, run in a worker thread so that its event loop is not the
 * one of the model server writing the pieces: the sockets of one room (`WS /ws/agent/{room}` on a
 * host, or the same path on the bare relay), driven as headsets are. `fan` joins `sockets`
 * sockets, asks `turns` turns from the first and takes, for each `agent_text` piece on each
 * socket, how long it took from the model server's write (the piece's text starts with its stamp,
 * the writer's performance.now(), which `origin` turns into this clock). `shot` joins one socket
 * that answers each capture with a 4 MiB screenshot frame and says when it sent each one. Times
 * cross threads as performance.timeOrigin + performance.now().
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, mode, sockets: count = 1, turns, origin } = workerData;
const now = () => performance.timeOrigin + performance.now();

/** One socket, resolved once the room's `history` reached it; each text frame goes to `onFrame`. */
function join(onFrame) {
  const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 64 * 1024 * 1024 });
  return new Promise((resolve, reject) => {
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      const at = now();
      const frame = JSON.parse(data.toString('utf8'));
      if (frame.type === 'history') resolve(socket);
      onFrame(frame, at, socket);
    });
    socket.once('error', reject);
  });
}

/** `<u32 LE header length><JSON header><payload>`, as a headset sends a screenshot. */
function screenshotFrame() {
  const header = Buffer.from(JSON.stringify({ kind: 'screenshot', mime: 'image/jpeg' }));
  const frame = Buffer.alloc(4 * 1024 * 1024, 7);
  frame.writeUInt32LE(header.length, 0);
  header.copy(frame, 4);
  frame.set([0xff, 0xd8, 0xff], 4 + header.length);
  return frame;
}

/** Runs `turns` turns from `speaker`, each ended when `done` has been called `expected` times. */
async function talk(speaker, expected, hooks) {
  for (let i = 0; i < turns; i++) {
    await new Promise((resolve, reject) => {
      let left = expected;
      hooks.done = () => --left === 0 && resolve();
      hooks.fail = (message) => reject(new Error(`turn ${i} was refused: ${message}`));
      speaker.send(JSON.stringify({ type: 'text', text: `turn ${i}` }));
    });
    hooks.after?.(speaker);
  }
}

async function fan() {
  const delays = [];
  const hooks = {};
  const onFrame = (frame, at) => {
    if (frame.type === 'agent_text') delays.push(at - (origin + Number(frame.text.split('|')[0])));
    else if (frame.type === 'agent_text_done') hooks.done?.();
    else if (frame.type === 'error') hooks.fail?.(frame.message);
  };
  const sockets = [];
  for (let i = 0; i < count; i++) sockets.push(await join(onFrame));
  await talk(sockets[0], count, hooks);
  for (const socket of sockets) socket.close();
  return { delays };
}

async function shot() {
  const frame = screenshotFrame();
  const sent = [];
  const hooks = {};
  const onFrame = (message, _at, socket) => {
    if (message.type === 'tool_call') {
      socket.send(JSON.stringify({ type: 'tool_result', request_id: message.request_id, result: { ok: true } }));
      sent.push(now());
      socket.send(frame);
    } else if (message.type === 'agent_text_done') hooks.done?.();
    else if (message.type === 'error') hooks.fail?.(message.message);
  };
  const socket = await join(onFrame);
  // A new conversation after each turn: the next request carries its own picture, not those before it.
  hooks.after = (speaker) => speaker.send(JSON.stringify({ type: 'end_conversation' }));
  await talk(socket, 1, hooks);
  socket.close();
  return { sent };
}

parentPort.postMessage(await (mode === 'shot' ? shot() : fan()));
