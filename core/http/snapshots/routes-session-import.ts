/**
 * @module routes-session-import
 * `POST /api/snapshots` with a session file (`<id>.vitrine`, a tar archive) as its body: the
 * snapshot taken in under its own id, each byte checked against its id, pinned as one taken
 * here. Its own scope reads raw bodies of any type but a form's, known as a session file by
 * their tar magic (the rest of the host keeps its JSON-only parsers). The body is written to a
 * file as it arrives (spool-session.ts) and read from there, so no session is held in memory;
 * the file is removed once answered. A body past the limit is refused from its Content-Length
 * before it is read, or as soon as it passes the limit.
 */
import type { FastifyInstance } from 'fastify';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { spoolSession } from '../../snapshots/spool-session.ts';
import { MAX_SESSION_BYTES } from '../../snapshots/session-layout.ts';

/** The types a page's form can send to another site without asking first: never a session file. */
const FORM_TYPES = /^\s*(?:text\/plain|multipart\/form-data|application\/x-www-form-urlencoded)\s*(?:;|$)/i;

export async function sessionImportRoute(app: FastifyInstance, { ctx }: { ctx: Pick<HostContext, 'snapshots'> }): Promise<void> {
  app.removeAllContentTypeParsers();
  // Any other type (or none) is read, and the file is known by its tar magic, not by its label.
  app.addContentTypeParser('*', (request, payload, done) => {
    const type = request.headers['content-type'];
    if (type !== undefined && FORM_TYPES.test(type)) return done(createHostError('SPC_ERR_SESSION_MEDIA_TYPE', type));
    done(null, payload);
  });

  app.post(
    '/api/snapshots',
    {
      schema: {
        summary: 'Take in a session file: a snapshot and every byte it pins, under its own id',
        description:
          'The body is a `.vitrine` file as `GET /api/snapshots/{id}?format=bundle` answers it (sent as `application/x-tar`, ' +
          '`application/octet-stream` or any type but a form’s: it is known by its tar magic). 201 `{"id", "url"}` with the id the file names; ' +
          'the document and each result are checked ' +
          `against their ids (400 \`SPC_ERR_SESSION_MISMATCH\` naming the part that differs), and the results pinned for \`--snapshot-ttl\`. ` +
          `At most ${MAX_SESSION_BYTES} bytes (413).`,
      },
      onRequest: async (request) => {
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > MAX_SESSION_BYTES) {
          throw createHostError('SPC_ERR_SESSION_TOO_LARGE', String(MAX_SESSION_BYTES));
        }
      },
    },
    async (request, reply) => {
      const stream = request.body as Readable | undefined;
      if (!stream) throw createHostError('SPC_ERR_SESSION_INVALID', 'the request has no body');
      const file = await spoolSession(stream, ctx.snapshots.spoolDir, MAX_SESSION_BYTES);
      try {
        return reply.code(201).send(await ctx.snapshots.importFile(file));
      } finally {
        await rm(file, { force: true });
      }
    },
  );
}
