/**
 * @module ready-frame
 * A host frame made once as the bytes a WebSocket server puts on the wire, written as they are to
 * every socket of a room. A server's frames are not masked, so one text frame is the same bytes on
 * every connection: a reply's piece going to 24 sockets is one JSON text and one frame, and each
 * socket costs one write of ready bytes instead of ws framing the same text again (a header made,
 * two buffers corked and written together, a callback). ws is bypassed only on a socket with no
 * extension in use: with compression on, ws may hold frames back, and a frame written past them
 * would arrive first.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** A frame's JSON, and the same JSON framed as a final, unmasked text frame. */
export interface ReadyFrame {
  text: Buffer;
  wire: Buffer;
}

const ready = new WeakMap<object, ReadyFrame>();

/** The header of a final text frame of `length` bytes, unmasked (RFC 6455, 5.2). */
function textHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 65536) return Buffer.from([0x81, 126, length >> 8, length & 0xff]);
  const header = Buffer.from([0x81, 127, 0, 0, 0, 0, 0, 0, 0, 0]);
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

/** `frame`'s bytes, made at its first sending: the host's frames are values, never changed once sent. */
export function readyFrame(frame: object): ReadyFrame {
  let made = ready.get(frame);
  if (!made) {
    const json = Buffer.from(JSON.stringify(frame));
    const header = textHeader(json.length);
    const wire = Buffer.concat([header, json]);
    ready.set(frame, (made = { text: wire.subarray(header.length), wire }));
  }
  return made;
}

/** The connection under `socket` when ready frames may be written to it, else null. */
export function readyWriter(socket: WebSocket): Duplex | null {
  // ws keeps its connection in `_socket` (a test checks it against the installed ws).
  const connection = (socket as unknown as { _socket?: Duplex })._socket;
  return socket.extensions === '' && connection ? connection : null;
}
