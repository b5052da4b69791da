/**
 * @module agent-oversize.test
 * A client's frame past its socket's bound, on a host listening on loopback whose log is read:
 * a 100 MB binary message (sent as the probe's client would, a piece at a time while its socket
 * keeps answering pings) and a text frame past 1 MiB each close the socket with 1009 and a close
 * frame (never a dropped connection, 1006), a text frame's close says why, the host logs the
 * refusal at info level and nothing at error level, and the room's other sockets go on.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { binaryFrame, connectAgent } from '../helpers/agent-client.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';

const MIB = 1024 * 1024;

/** The host's log lines, parsed. */
function capture(): { stream: PassThrough; lines: () => { level: number; msg: string }[] } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, lines: () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string }) };
}

/**
 * One binary message of `pieces` MiB, a MiB a fragment, each sent once the last is written: the
 * client's loop stays free to answer pings (masking 100 MB at once would hold it for seconds, and
 * the host rightly drops a socket that stops answering). Stops once the socket is no longer open.
 */
function sendInPieces(socket: WebSocket, pieces: number): void {
  const piece = Buffer.alloc(MIB);
  const send = (i: number) => {
    if (socket.readyState !== socket.OPEN) return;
    const data = i === 0 ? binaryFrame({ kind: 'screenshot', mime: 'image/jpeg' }, piece) : piece;
    socket.send(data, { binary: true, fin: i === pieces - 1 }, (error) => {
      if (!error && i + 1 < pieces) setImmediate(() => send(i + 1));
    });
  };
  send(0);
}

describe('a client frame past its bound', () => {
  it('closes with 1009 and a close frame, logged below error level, the room’s others served', async () => {
    const log = capture();
    const app = await createTestApp({ specimensDir: null, logLevel: 'info', logStream: log.stream });
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const r = room('oversize');
    const other = await connectAgent(url, r);

    const binary = await connectAgent(url, r);
    sendInPieces(binary.socket, 100);
    expect((await binary.closed).code).toBe(1009);

    const text = await connectAgent(url, r);
    text.socket.send(JSON.stringify({ type: 'text', text: 'x'.repeat(2 * MIB) }));
    expect(await text.closed).toEqual({ code: 1009, reason: 'text frames are at most 1 MiB' });

    other.send('{"type":"dance"}');
    expect((await other.next((f) => f.type === 'error')).message).toBe("unknown frame type 'dance'");
    await other.close();
    const lines = log.lines();
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    const refused = /^a client's WebSocket frame was refused: Max payload size exceeded/;
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, msg: expect.stringMatching(refused) }));
  }, 120_000);
});
