/**
 * @module send-opened
 * The HTTP side of the catalog's openers: sends an OpenedBody (static data, thumbnails) on a
 * fastify reply, with the request's range, validator and HEAD details passed in.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import type { OpenedBody, OpenRequest } from '../catalog/opened-body.ts';
import { openStaticData, type StaticDataOptions } from '../catalog/open-static-data.ts';
import { openThumbnail } from '../catalog/open-thumbnail.ts';
import { DisconnectSignal } from './abort-on-disconnect.ts';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The parts of a request that opening bytes depends on. */
export function openRequestOf(reply: FastifyReply): OpenRequest {
  const request = reply.request;
  const disconnect = new DisconnectSignal(request, reply);
  return {
    head: request.method === 'HEAD',
    range: header(request, 'range'),
    ifRange: header(request, 'if-range'),
    ifNoneMatch: header(request, 'if-none-match'),
    // Read only by a remote fetch: a local file makes no signal.
    get signal() {
      return disconnect.signal;
    },
  };
}

export function sendOpened(reply: FastifyReply, opened: OpenedBody): FastifyReply {
  reply.code(opened.status).headers(opened.headers);
  if (opened.body !== null) return reply.send(opened.body);
  // Fastify answers HEAD with the GET handler; an empty stream (rather than no body) keeps
  // the Content-Length set above instead of replacing it with 0.
  return reply.send(reply.request.method === 'HEAD' && opened.status !== 304 ? Readable.from([]) : undefined);
}

export async function sendStaticData(reply: FastifyReply, record: SpecimenRecord, options: StaticDataOptions): Promise<FastifyReply> {
  return sendOpened(reply, await openStaticData(record, openRequestOf(reply), options));
}

export async function sendThumbnail(reply: FastifyReply, record: SpecimenRecord): Promise<FastifyReply> {
  return sendOpened(reply, await openThumbnail(record, openRequestOf(reply)));
}
