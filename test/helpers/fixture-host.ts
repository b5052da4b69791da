/**
 * @module fixture-host
 * A `vitrine serve` process on the built fixture plugins and a fresh small specimens directory,
 * on a free port: the host most process-level tests and benchmarks start, each adding its own
 * flags. `spawnLabHost` is the same host bound beyond loopback (so it makes an admin token).
 */
import { fixturePluginsDir } from './fixture-plugins.ts';
import { spawnHost, type RunningHost, type SpawnHostOptions } from './spawn-host.ts';
import { makeSpecimensDir } from './specimens-dir.ts';

/** `vitrine serve --port 0 --plugins <fixtures> --specimens <fresh dir> ...args`. */
export async function spawnFixtureHost(args: string[] = [], options: SpawnHostOptions = {}): Promise<RunningHost> {
  return spawnHost(['--port', '0', '--plugins', await fixturePluginsDir(), '--specimens', await makeSpecimensDir(), ...args], options);
}

/**
 * A fixture host bound on every address (a lab host: it prints an admin token unless `args`
 * say otherwise), with no viewer and one compute thread; `base` reaches it over 127.0.0.1.
 */
export async function spawnLabHost(args: string[] = []): Promise<{ host: RunningHost; base: string }> {
  const host = await spawnFixtureHost(['--host', '0.0.0.0', '--no-viewer', '--pool-size', '1', ...args]);
  return { host, base: `http://127.0.0.1:${host.port}` };
}
