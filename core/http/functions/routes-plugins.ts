/**
 * @module routes-plugins
 * What is deployed: `GET /api/plugins` lists each plugin with the versions the host keeps
 * (newest first; the first serves), each one's bundle id, signature, when it was loaded, its
 * functions and the rooms whose layers it computed, what the last reload refused of it, and
 * the later version a downgrade came after.
 */
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../../host-context.ts';
import type { LoadedPlugin } from '../../registry/manifest-loader.ts';

/** One kept version as operators see it, with the rooms whose layers it computed. */
function versionView(plugin: LoadedPlugin, serving: boolean, rooms: Map<string, string[]>) {
  return {
    version: plugin.version,
    bundle: plugin.bundle,
    signature: plugin.signature,
    loaded_at: plugin.loadedAt,
    serving,
    functions: plugin.functions.map((f) => f.name),
    rooms: (rooms.get(plugin.bundle) ?? []).sort(),
  };
}

export async function pluginsView(ctx: Pick<HostContext, 'plugins' | 'scenes'>) {
  const rooms = await ctx.scenes.roomsByBundle();
  return {
    keep: ctx.plugins.versions.keep,
    plugins: ctx.plugins.versions.list().map((record) => {
      const serving = record.versions[0];
      return {
        plugin: record.name,
        version: serving?.version ?? null,
        bundle: serving?.bundle ?? null,
        signature: serving?.signature ?? null,
        loaded_at: serving?.loadedAt ?? null,
        versions: record.versions.map((v, i) => versionView(v, i === 0, rooms)),
        problems: record.problems,
        downgraded_from: record.downgradedFrom ?? null,
      };
    }),
  };
}

export async function pluginRoutes(app: FastifyInstance, opts: { ctx: Pick<HostContext, 'plugins' | 'scenes'> }): Promise<void> {
  app.get(
    '/api/plugins',
    {
      schema: {
        summary: 'The plugins deployed: each one’s kept versions (the first serves), bundle ids, signatures, when loaded, and what was refused',
        description:
          '`{"keep": N, "plugins": [{"plugin", "version", "bundle", "signature", "loaded_at", "versions": [{"version", "bundle", "signature", ' +
          '"loaded_at", "serving", "functions", "rooms"}], "problems": [...], "downgraded_from"}]}` (`rooms`: those whose layers it computed on this host). ' +
          'A plugin whose bundle was refused at the last reload names the reason in `problems` while its kept version serves; ' +
          '`downgraded_from` names the later version the serving one came after (a downgrade: layers that pin no version follow it), else null.',
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(await pluginsView(opts.ctx)),
  );
}
