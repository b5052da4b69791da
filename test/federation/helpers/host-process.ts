/**
 * @module host-process
 * Real `vitrine serve` processes for the federation tests (through test/helpers/spawn-host.ts),
 * and waiting for a catalog to show what workers registered.
 */
import { fileURLToPath } from 'node:url';
import { killAllHosts, spawnHost, type RunningHost } from '../../helpers/spawn-host.ts';
import { STATE_WAIT_MS, waitFor } from '../../helpers/wait-for.ts';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

export interface HostProcess extends RunningHost {
  /** Everything written to standard error so far. */
  logs(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** A federation host: no viewer, two compute threads, on `port` (default: a free one). */
export async function startHost(args: string[], options: { port?: number } = {}): Promise<HostProcess> {
  const host = await spawnHost(['--port', String(options.port ?? 0), '--no-viewer', '--pool-size', '2', ...args]);
  return Object.assign(host, {
    logs: () => host.stderr(),
    kill: async (signal: NodeJS.Signals = 'SIGTERM') => void (await host.stop(signal)),
  });
}

/** Kills every host still running (afterAll/afterEach). */
export const killAll = killAllHosts;

/** The ids in a host's catalog, in its order. */
export async function catalogIds(host: HostProcess): Promise<string[]> {
  return ((await (await fetch(`${host.url}/api/specimens`)).json()) as { id: string }[]).map((e) => e.id);
}

/** Resolves once every id in `ids` is in the host's catalog (workers register asynchronously). */
export function registered(host: HostProcess, ...ids: string[]): Promise<true> {
  return eventually(async () => {
    const listed = await catalogIds(host);
    return ids.every((id) => listed.includes(id)) ? true : undefined;
  }, `${ids.join(', ')} in the catalog`);
}

/** Polls `probe` until it returns a value other than undefined (state that changes asynchronously). */
export function eventually<T>(probe: () => Promise<T | undefined>, what: string, limitMs = STATE_WAIT_MS): Promise<T> {
  return waitFor(probe, what, limitMs, 100);
}
