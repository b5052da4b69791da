/**
 * @module agent-client
 * An agent socket as the tests drive it (`WS /ws/agent/{room}`), speaking the frames the
 * Ascribe-XR client speaks: every frame it receives is kept in order (text frames parsed, binary
 * ones split into header and payload), `next` waits for one, and `headset()` makes it answer
 * the tool calls it is the executor of as the client's dispatcher does (an `ok` result; for
 * `capture_viewport` the acknowledging result, then the screenshot frame).
 */
import WebSocket from 'ws';
import { waitFor } from './wait-for.ts';

export type Frame = { type: string; [key: string]: unknown };
export type Received = { text: Frame } | { binary: { header: Record<string, unknown>; payload: Buffer } };

/** `<u32 LE header length><JSON header><payload>`, as the client encodes a binary frame. */
export function binaryFrame(header: Record<string, unknown>, payload: Uint8Array = Buffer.alloc(0)): Buffer {
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  return Buffer.concat([length, json, payload]);
}

export interface AgentClient {
  socket: WebSocket;
  received: Received[];
  /** The text frames received, in order. */
  frames(): Frame[];
  clientId: number;
  send(frame: object | string): void;
  sendBinary(header: Record<string, unknown>, payload?: Uint8Array): void;
  /** Waits for a text frame matching `match` after the `from`-th received (default: any received since the last `next`). */
  next(match: (frame: Frame) => boolean, what?: string): Promise<Frame>;
  /** Answers tool calls this socket executes, as the headset client does; `jpeg` is the screenshot it sends. */
  headset(jpeg?: Buffer): void;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
}

export async function connectAgent(base: string, room: string, query = '', options: WebSocket.ClientOptions = {}): Promise<AgentClient> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/ws/agent/${encodeURIComponent(room)}${query}`, { ...options, maxPayload: 64 * 1024 * 1024 });
  const received: Received[] = [];
  let cursor = 0;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  socket.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) return void received.push({ text: JSON.parse(data.toString('utf8')) as Frame });
    const length = data.readUInt32LE(0);
    const header = JSON.parse(data.subarray(4, 4 + length).toString('utf8')) as Record<string, unknown>;
    received.push({ binary: { header, payload: data.subarray(4 + length) } });
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const frames = () => received.flatMap((r) => ('text' in r ? [r.text] : []));
  const history = await waitFor(() => frames().find((f) => f.type === 'history'), `the history frame of room ${room}`);
  const client: AgentClient = {
    socket,
    received,
    frames,
    clientId: history.client_id as number,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    sendBinary: (header, payload) => socket.send(binaryFrame(header, payload)),
    async next(match, what = 'a frame') {
      const found = await waitFor(() => {
        for (let i = cursor; i < received.length; i++) {
          const r = received[i]!;
          if ('text' in r && match(r.text)) return i;
        }
        return undefined;
      }, `${what} on client ${history.client_id as number}`);
      cursor = found + 1;
      return (received[found] as { text: Frame }).text;
    },
    headset(jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9])) {
      socket.on('message', (data: Buffer, isBinary) => {
        if (isBinary) return;
        const frame = JSON.parse(data.toString('utf8')) as Frame;
        if (frame.type !== 'tool_call' || frame.executor !== client.clientId) return;
        client.send({ type: 'tool_result', request_id: frame.request_id, result: { ok: true } });
        if (frame.name === 'capture_viewport') client.sendBinary({ kind: 'screenshot', mime: 'image/jpeg' }, jpeg);
      });
    },
    closed,
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.close();
      await closed;
    },
  };
  return client;
}
