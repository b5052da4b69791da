/**
 * @module host-process
 * Test helper: builds the viewer fixture plugin with the real `vitrine build` and runs a real
 * host process (`vitrine serve --port 0`) on loopback, with a temporary specimens directory
 * holding one static mesh. Shared by the client and browser tests.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtFixture } from '../helpers/built-fixture.ts';
import { spawnHost } from '../helpers/spawn-host.ts';

/** A running host. */
export interface HostProcess {
  baseUrl: string;
  /** Everything the process wrote so far (for failure messages). */
  output(): string;
  /** Stops the process (SIGTERM, then SIGKILL) and removes its temp folders. */
  close(): Promise<void>;
}

/** An OBJ unit cube: 8 vertices, 12 triangles. */
export const STATIC_CUBE_OBJ = `# unit cube
v -0.5 -0.5 -0.5
v 0.5 -0.5 -0.5
v 0.5 0.5 -0.5
v -0.5 0.5 -0.5
v -0.5 -0.5 0.5
v 0.5 -0.5 0.5
v 0.5 0.5 0.5
v -0.5 0.5 0.5
f 1 3 2
f 1 4 3
f 5 6 7
f 5 7 8
f 1 2 6
f 1 6 5
f 4 8 7
f 4 7 3
f 1 5 8
f 1 8 4
f 2 3 7
f 2 7 6
`;

/** A specimens folder with one static specimen `cube` (an OBJ file). */
export async function makeSpecimensDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-specimens-'));
  await mkdir(path.join(dir, 'cube'));
  await writeFile(path.join(dir, 'cube', 'cube.obj'), STATIC_CUBE_OBJ);
  await writeFile(
    path.join(dir, 'cube', 'specimen.json'),
    JSON.stringify({
      id: 'cube',
      display_name: 'Static cube',
      description: 'A unit cube stored as an OBJ file.',
      type: 'mesh',
      data_file: 'cube.obj',
      tags: ['mesh', 'static'],
    }),
  );
  return dir;
}

/**
 * Builds the fixtures and starts `vitrine serve --port 0` on them; resolves once the process
 * prints its `listening on` line.
 */
export async function startHost(extraArgs: string[] = []): Promise<HostProcess> {
  const pluginsDir = await builtFixture('browser-plugins');
  const specimensDir = await makeSpecimensDir();
  const host = await spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', pluginsDir, '--specimens', specimensDir, ...extraArgs]);
  return {
    baseUrl: host.url,
    output: () => host.stdout() + host.stderr(),
    async close() {
      const timer = setTimeout(() => void host.stop('SIGKILL'), 5_000);
      await host.stop('SIGTERM');
      clearTimeout(timer);
      await rm(specimensDir, { recursive: true, force: true });
    },
  };
}
