/**
 * `npm run neuroglancer`: the stock Neuroglancer the browser tests open, served by a process of
 * its own until stopped, for a machine with no internet access. It prints its URL, answers its
 * index page and bundle there, stops on SIGINT, and refuses a port that is not one.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';

const SCRIPT = 'build/tools/neuroglancer/serve.ts';
const started: ReturnType<typeof spawn>[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('npm run neuroglancer', () => {
  it('serves the bundled stock Neuroglancer at the URL it prints, until stopped', async () => {
    const { child, output } = start(['--port', '0']);
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', () => {
        const found = /neuroglancer on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output());
        if (found) resolve(found[1]!);
      });
      child.once('exit', () => reject(new Error(`exited before serving: ${output()}`)));
    });
    expect(output()).toContain(`--cors-origin ${url.slice(0, -1)}`);
    const index = await fetch(url);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<script type="module" src="/main.bundle.js">');
    for (const file of ['main.bundle.js', 'main.bundle.css', 'chunk_worker.bundle.js', 'neuroglancer_draco.wasm']) {
      const answer = await fetch(new URL(file, url));
      expect(answer.status, file).toBe(200);
      expect((await answer.arrayBuffer()).byteLength, file).toBeGreaterThan(0);
    }
    expect((await fetch(new URL('../package.json', url))).status).toBe(404);
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('refuses a port that is not one', async () => {
    const { child, output } = start(['--port', 'eighty']);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(output()).toContain("--port must be a whole number from 0 to 65535, not 'eighty'");
  });
});
