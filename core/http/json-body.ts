/**
 * @module json-body
 * Request bodies are JSON or nothing: `application/json` and any `*\/*+json` type are parsed;
 * every other content type (text/plain, form posts, multipart, a body without a type) is a 415
 * before the body is read, so a cross-site form post cannot reach a route. A `null` body is a
 * 400; an empty one means no body, which a route that declares a body schema reads as `{}`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHostError } from '../errors.ts';
import { routeOf } from './route-of.ts';

export function parseJson(_request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void): void {
  if (body.trim() === '') return done(null, undefined);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return done(createHostError('SPC_ERR_BODY_INVALID_JSON', (error as Error).message));
  }
  // `null` is not "no body": a client that sends it meant something the host cannot guess.
  if (value === null) return done(createHostError('SPC_ERR_BODY_NULL'));
  done(null, value);
}

/** Replaces fastify's body parsers: JSON types parsed, anything else answered 415 unread. */
export function installJsonBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^[^/\s;]+\/[^/\s;]+\+json\s*(?:;|$)/i, { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('*', (request, _payload, done) => {
    done(createHostError('SPC_ERR_UNSUPPORTED_MEDIA_TYPE', request.headers['content-type'] ?? '(none)'));
  });
  // Before validation, so a body schema checks what the handler sees: no body is `{}`.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined && routeOf(request).schema?.body) request.body = {};
    done();
  });
}
