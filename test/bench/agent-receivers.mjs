/**
 * @module agent-receivers
 * The far end of the agent benchmark, run in a worker thread so that its event loop is not the
 * one of the model server writing the pieces: the sockets of rooms (`WS /ws/agent/{room}` on a
 * host, or the same path on the bare relay), driven as headsets are, one step at a time as the
 * main thread asks, so that the host and its baseline take turns under the same load.
 * Messages in: `{ op: 'join', key, url, sockets, mode }` joins `sockets` sockets as room `key`;
 * `{ op: 'turn', key, turn }` asks one turn from its first socket and answers once every socket
 * has had the reply's end; `{ op: 'leave', key }` closes room `key`'s sockets, `{ op: 'close' }`
 * all of them. A `fan` room answers, for each
 * `agent_text` piece on each socket, how long it took from the model server's write (the piece's
 * text starts with its stamp, the writer's performance.now(), which `origin` turns into this
 * clock). A `shot` room's socket answers each capture with a 4 MiB screenshot frame and says when
 * it sent it. Times cross threads as performance.timeOrigin + performance.now().
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { origin } = workerData;
const now = () => performance.timeOrigin + performance.now();
/** Longest a turn may take before the benchmark gives up on it. */
const TURN_MS = 120_000;

/** One socket, resolved once the room's `history` reached it; each text frame goes to `onFrame`. */
function join(url, onFrame) {
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

/** A room of sockets: what its turns measured, and the hooks a running turn listens on. */
function room(mode) {
  const frame = mode === 'shot' ? screenshotFrame() : null;
  const state = { sockets: [], measured: [], hooks: {} };
  state.onFrame = (message, at, socket) => {
    if (message.type === 'agent_text' && mode === 'fan') state.measured.push(at - (origin + Number(message.text.split('|')[0])));
    else if (message.type === 'tool_call' && frame) {
      socket.send(JSON.stringify({ type: 'tool_result', request_id: message.request_id, result: { ok: true } }));
      state.measured.push(now());
      socket.send(frame);
    } else if (message.type === 'agent_text_done') state.hooks.done?.();
    else if (message.type === 'error') state.hooks.fail?.(message.message);
  };
  return state;
}

/** One turn from the room's first socket, ended when every socket has had `agent_text_done`. */
function turn(state, i) {
  return new Promise((resolve, reject) => {
    let left = state.sockets.length;
    // A turn that never ends is told, not waited on for ever.
    const late = () => new Error(`turn ${i}: ${left} of ${state.sockets.length} sockets had no reply's end in ${TURN_MS / 1000} s`);
    const timer = setTimeout(() => reject(late()), TURN_MS);
    state.hooks.done = () => --left === 0 && (clearTimeout(timer), resolve());
    state.hooks.fail = (message) => (clearTimeout(timer), reject(new Error(`turn ${i} was refused: ${message}`)));
    state.sockets[0].send(JSON.stringify({ type: 'text', text: `turn ${i}` }));
  });
}

const rooms = new Map();

parentPort.on('message', async (message) => {
  try {
    if (message.op === 'join') {
      const state = room(message.mode);
      for (let i = 0; i < message.sockets; i++) state.sockets.push(await join(message.url, state.onFrame));
      rooms.set(message.key, { state, mode: message.mode });
      return parentPort.postMessage({ ok: true });
    }
    if (message.op === 'turn') {
      const { state, mode } = rooms.get(message.key);
      state.measured = [];
      await turn(state, message.turn);
      // A new conversation after each screenshot turn: the next request carries its own picture only.
      if (mode === 'shot') state.sockets[0].send(JSON.stringify({ type: 'end_conversation' }));
      return parentPort.postMessage({ ok: true, measured: state.measured });
    }
    if (message.op === 'leave') {
      for (const socket of rooms.get(message.key).state.sockets) socket.close();
      rooms.delete(message.key);
      return parentPort.postMessage({ ok: true });
    }
    if (message.op === 'close') {
      for (const { state } of rooms.values()) for (const socket of state.sockets) socket.close();
      return parentPort.postMessage({ ok: true });
    }
  } catch (error) {
    parentPort.postMessage({ ok: false, error: error.message });
  }
});
