/**
 * Reload without growth: after every RETIRE_AFTER_RELOADS reloads that bring new plugin code,
 * the compute threads (which keep every module version they imported) are retired and new
 * ones serve the newest code; between retirements they are kept.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleCompute, type ComputeAssembly } from '../../core/assembly/compute-assembly.ts';
import { resolveHostOptions } from '../../core/options.ts';
import { SpecimenCatalog } from '../../core/registry/specimen-catalog.ts';
import { RETIRE_AFTER_RELOADS } from '../../core/workers/thread-retirement.ts';
import { pluginsFolder } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

const MANIFEST = {
  $comment: 'written by a test',
  manifest_version: 1,
  plugin: 'tick',
  bundle: 'index.mjs',
  functions: [
    {
      name: 'tick',
      return_type: 'image',
      async: false,
      parameters: [],
      reporter_parameter: null,
      signal_parameter: null,
      schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: {}, required: [] },
      source: { file: 'index.ts', line: 1 },
    },
  ],
  specimens: [],
};

let compute: ComputeAssembly;
let dir: string;
const catalog = new SpecimenCatalog();

/** Writes the plugin's code anew: its one function returns an image one pixel wide holding `n`. */
async function writeVersion(n: number): Promise<void> {
  const code = `export function tick() { return { width: 1, height: 1, channels: 1, data: new Uint8Array([${n}]) }; }\n`;
  await writeFile(path.join(dir, 'tick', 'index.mjs'), code);
}

const threadIds = () => compute.pools.compute.threads.map((t) => t.threadId).sort();

async function run(): Promise<number> {
  const entry = compute.functions.get('tick')!;
  const outcome = (await compute.plugins.invoke(entry, {}, { roomId: 'r', signal: new AbortController().signal })) as { data: Uint8Array };
  return outcome.data[0]!;
}

beforeAll(async () => {
  dir = await pluginsFolder();
  await mkdir(path.join(dir, 'tick'));
  await writeFile(path.join(dir, 'tick', 'manifest.json'), JSON.stringify(MANIFEST));
  await writeVersion(0);
  compute = await assembleCompute(resolveHostOptions({ pluginsDir: dir, specimensDir: null, poolSize: 1, logLevel: false }));
  await compute.reload(catalog);
});
afterAll(() => compute?.close());

describe('reload without growth', { timeout: 120_000 }, () => {
  it('retires the compute threads every RETIRE_AFTER_RELOADS reloads of new code, and keeps them between', async () => {
    expect(await run()).toBe(0);
    const first = await waitFor(() => (threadIds().length > 0 ? threadIds() : undefined), 'a compute thread');
    for (let n = 1; n < RETIRE_AFTER_RELOADS; n++) {
      await writeVersion(n);
      await compute.reload(catalog);
      expect(await run()).toBe(n);
    }
    expect(threadIds()).toEqual(first);
    await writeVersion(RETIRE_AFTER_RELOADS);
    await compute.reload(catalog);
    await waitFor(() => (threadIds().length > 0 && threadIds().every((id) => !first.includes(id)) ? true : undefined), 'new compute threads');
    expect(await run()).toBe(RETIRE_AFTER_RELOADS);
  });
});
