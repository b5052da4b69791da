/**
 * @module socket-limits
 * WebSocket frame limits by route. The host's WebSocket plugin opens every socket with one small
 * limit, so a peer nobody has checked cannot make the host hold a large frame. A route whose
 * sockets need more (the agent's screenshots, a relay's workers that showed the token) takes the
 * upgrade over in its preHandler, once the request has been checked, and opens the socket with
 * a ws server of its own limit. ws reads a frame's length from its header and refuses one past
 * the limit (close 1009) before reading its payload.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { socketError } from './socket-errors.ts';

/** Largest frame of a socket whose route sets no larger one: a pose, a hello and a request are far smaller. */
export const SMALL_FRAME_BYTES = 16 * 1024;

/** Opens a route's sockets with a frame limit of its own. */
export interface SizedUpgrades {
  /** From a preHandler, for a WebSocket request: takes the upgrade over and hands the socket to `take`. */
  upgrade(request: FastifyRequest, reply: FastifyReply, take: (socket: WebSocket) => void): void;
}

/** A client sends nothing before the host answers its handshake, so no bytes came with the upgrade. */
const NO_EARLY_BYTES = Buffer.alloc(0);

/** A ws server taking frames up to `maxPayload` bytes; its sockets close when the host does. */
export function sizedUpgrades(app: FastifyInstance, maxPayload: number): SizedUpgrades {
  const server = new WebSocketServer({ noServer: true, maxPayload, perMessageDeflate: false });
  app.addHook('preClose', (done) => {
    for (const socket of server.clients) socket.close(1001, 'host shutting down');
    server.close();
    done();
  });
  return {
    upgrade(request, reply, take) {
      reply.hijack();
      server.handleUpgrade(request.raw, request.raw.socket, NO_EARLY_BYTES, (socket) => {
        // ws has already closed the socket with the reason (1009 for a frame past the limit):
        // told as every other route's socket errors are.
        socket.on('error', (err) => socketError(err, socket, request));
        take(socket);
      });
    },
  };
}
