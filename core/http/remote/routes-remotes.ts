/**
 * @module routes-remotes
 * `GET /api/remotes`: the names of the remotes this host reads images from (the page's Add
 * dialog and the notebook offer them). Only names: a remote's URL may carry credentials and
 * says where the host reaches, which is the operator's business.
 */
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../../host-context.ts';

export async function remoteRoutes(app: FastifyInstance, opts: { ctx: Pick<HostContext, 'remotes'> }): Promise<void> {
  const { remotes } = opts.ctx;
  app.get(
    '/api/remotes',
    {
      schema: {
        summary: 'The names of the remotes this host reads images from',
        description: 'Publish an image of one with PUT /api/specimens/{id} and {"remote": "NAME/path/to/image.ome.zarr"}. Names only, never URLs.',
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send({ remotes: remotes.names().map((name) => ({ name })) }),
  );
}
