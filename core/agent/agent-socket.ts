/**
 * @module agent-socket
 * One agent socket on the host that holds it: given the room's next client id and listed in the
 * room's roster, it joins the room (which sends `history` first), then each frame it sends is
 * read, held to its bounds and, where it writes (a turn, a tool result, a screenshot, the floor,
 * audio, an interrupt, an end), allowed only to whom the room lets write. A frame that cannot be
 * read gets an `error` frame and the socket stays open; a text frame past 1 MiB or a binary one
 * past 4 MiB closes it with 1009. Frames are handled one at a time in the order they came, those
 * sent before the join included.
 */
import type { WebSocket } from 'ws';
import type { Peer } from '../presence/peer.ts';
import { keepAlive } from '../presence/socket-heartbeat.ts';
import { faultWords, FrameProblem, hostFrames, readClientFrame, type ClientFrame } from './agent-frames.ts';
import type { AgentMember } from './agent-member.ts';
import type { RoomRight } from './agent-tools.ts';
import { decodeBinary, type BinaryFrame } from './binary-frame.ts';
import type { ClientIds } from './client-ids.ts';

/** Largest text frame. */
export const MAX_TEXT_FRAME = 1024 * 1024;
/** Largest binary frame (a screenshot, a stretch of audio): the socket's limit, refused by ws with 1009. */
export const MAX_BINARY_FRAME = 4 * 1024 * 1024;
/** Bytes queued to a socket past which it is too slow to follow the room, and is closed. */
const SLOW_READER_BYTES = 64 * 1024 * 1024;
/** Floor frames (`bind`, `unbind`) one socket may send a second. */
const FLOOR_FRAMES_PER_SECOND = 10;

/** Frames that change the room, and so need the right to write it. */
const WRITES = new Set<ClientFrame['type']>(['text', 'tool_result', 'interrupt', 'end_conversation', 'bind', 'unbind']);

/** Where a socket's frames go: the room's holder, on this host or another. */
export interface AgentRoomsPort {
  join(roomId: string, member: AgentMember): Promise<void>;
  leave(roomId: string, clientId: number): void;
  frame(roomId: string, member: AgentMember, frame: ClientFrame): Promise<void>;
  binary(roomId: string, member: AgentMember, frame: BinaryFrame): Promise<void>;
}

/** Who a socket is, worked out at its upgrade: what its member in the room will say of it. */
export type SocketWho = Pick<AgentMember, 'peer' | 'identity' | 'baseUrl' | 'readOnly'>;

export interface AgentSocketDeps {
  rooms: AgentRoomsPort;
  ids: ClientIds;
  right: RoomRight;
  /** Lists the peer in the room's roster; answers what takes it out. */
  follow(roomId: string, peer: Peer): Promise<() => void>;
  opened(): void;
  closed(): void;
  fault(message: string, error: unknown): void;
}

/**
 * Each host frame's JSON as UTF-8 bytes, made once however many sockets it goes to (a frame is
 * never changed once sent): every socket is handed the same bytes, none encodes the text again.
 */
const encoded = new WeakMap<object, Buffer>();

function bytesOfFrame(frame: object): Buffer {
  let bytes = encoded.get(frame);
  if (bytes === undefined) encoded.set(frame, (bytes = Buffer.from(JSON.stringify(frame), 'utf8')));
  return bytes;
}

function memberOf(socket: WebSocket, who: SocketWho, clientId: number): AgentMember {
  // Checked before each frame rather than after each write: the room's frames queue no callbacks.
  const following = () => {
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount <= SLOW_READER_BYTES) return true;
    socket.close(1008, 'too slow to follow the room');
    return false;
  };
  return {
    clientId,
    peer: { ...who.peer, client_id: clientId },
    identity: who.identity,
    readOnly: who.readOnly,
    baseUrl: who.baseUrl,
    send: (frame) => {
      // ws's own framing: one writer per connection, whatever extensions it uses.
      if (following()) socket.send(bytesOfFrame(frame), { binary: false });
    },
    sendBytes: (data) => {
      if (following()) socket.send(data);
    },
  };
}

export async function serveAgentSocket(deps: AgentSocketDeps, roomId: string, who: SocketWho, socket: WebSocket): Promise<void> {
  deps.opened();
  // Frames are taken at once (those sent right after the upgrade too) and handled in order.
  let chain: Promise<void> = Promise.resolve();
  let member: AgentMember | null = null;
  let floorWindow = { start: 0, count: 0 };
  const floorTooFast = () => {
    const now = Date.now();
    if (now - floorWindow.start >= 1000) floorWindow = { start: now, count: 0 };
    return ++floorWindow.count > FLOOR_FRAMES_PER_SECOND;
  };
  const handle = async (data: Buffer, isBinary: boolean) => {
    if (!member || socket.readyState !== socket.OPEN) return;
    const refuse = (message: string) => member!.send(hostFrames.error(message));
    const writing = async () => {
      if (who.readOnly) return who.readOnly;
      try {
        return await deps.right(roomId, who.identity, 'write');
      } catch (error) {
        deps.fault(`room '${roomId}': a socket's right to write could not be checked`, error);
        return faultWords('your right to write this room could not be checked', error);
      }
    };
    if (isBinary) {
      const frame = decodeBinary(data);
      if (frame instanceof FrameProblem) return refuse(frame.message);
      const refusal = frame.header.kind === 'audio' || frame.header.kind === 'screenshot' ? await writing() : null;
      return refusal ? refuse(refusal) : deps.rooms.binary(roomId, member, frame);
    }
    const frame = readClientFrame(data.toString('utf8'));
    if (frame instanceof FrameProblem) return refuse(frame.message);
    if ((frame.type === 'bind' || frame.type === 'unbind') && floorTooFast()) {
      return refuse(`${frame.type} faster than ${FLOOR_FRAMES_PER_SECOND} a second is refused`);
    }
    const refusal = WRITES.has(frame.type) ? await writing() : null;
    return refusal ? refuse(refusal) : deps.rooms.frame(roomId, member, frame);
  };
  socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (!isBinary && bytes.length > MAX_TEXT_FRAME) return socket.close(1009, 'text frames are at most 1 MiB');
    chain = chain.then(() => handle(bytes, isBinary)).catch((error: unknown) => {
      // A fault on the frame's way (the room's holder unreachable, Redis away) is told to its sender.
      deps.fault(`room '${roomId}': an agent frame failed`, error);
      member?.send(hostFrames.error(faultWords('the frame could not be handled', error)));
    });
  });
  keepAlive(socket, () => {});
  let leaveRoster: (() => void) | null = null;
  socket.once('close', () => {
    deps.closed();
    // After the frames already taken: the room hears them before it hears the socket left.
    chain = chain.then(() => {
      if (member) deps.rooms.leave(roomId, member.clientId);
      leaveRoster?.();
    });
  });
  const joined = (async () => {
    const clientId = await deps.ids.next(roomId);
    const joining = memberOf(socket, who, clientId);
    leaveRoster = await deps.follow(roomId, joining.peer);
    await deps.rooms.join(roomId, joining);
    member = joining;
  })();
  // A socket that could not join hears no more: its frames wait on the join, which failed.
  chain = chain.then(() => joined).catch(() => {});
  await joined;
}
