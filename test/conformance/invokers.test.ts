/**
 * The invoker conformance cases (invoker-cases.ts) against each Invoker: inline (main
 * thread), pooled (worker threads running the built bundle) and remote (a relay running the
 * functions on a joined worker over a real WebSocket). All three run the same functions; the
 * Python invoker runs their Python twins in python-invoker.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../../core/app.ts';
import { listen } from '../../core/server.ts';
import { InlineInvoker } from '../../core/invoke/inline-invoker.ts';
import type { Invoker } from '../../core/invoke/invoker.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';
import { eventually } from '../federation/helpers/host-process.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { invokerConformance } from './invoker-cases.ts';
import { hostInvokersOf } from '../../core/assembly/host-internals.ts';

let pluginsDir = '';
let pooledApp: FastifyInstance;
let relay: FastifyInstance;
let worker: FastifyInstance;
let bundle: Record<string, (...args: unknown[]) => unknown>;

beforeAll(async () => {
  pluginsDir = await mkdtemp(path.join(tmpdir(), 'vitrine-conformance-'));
  await promisify(execFile)(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/conformance'), '--out', pluginsDir], { cwd: REPO });
  const base = { specimensDir: null, logLevel: false as const, viewer: false, poolSize: 2, cancelGraceMs: 200 };
  pooledApp = await createApp({ ...base, pluginsDir });
  const bundleFile = pooledApp.vitrine.functionEntry('sync_mesh');
  if (bundleFile?.source.kind !== 'bundle') throw new Error('sync_mesh did not load from the bundle');
  bundle = (await import(pathToFileURL(bundleFile.source.modulePath).href)) as typeof bundle;
  relay = await createApp({ ...base, pluginsDir: null, relay: true });
  const relayUrl = await listen(relay, '127.0.0.1', 0);
  worker = await createApp({ ...base, pluginsDir, join: relayUrl, workerId: 'w' });
  await listen(worker, '127.0.0.1', 0);
  await eventually(async () => (relay.vitrine.functionEntry('w:endless') ? true : undefined), 'the worker’s functions on the relay');
});

afterAll(async () => {
  await Promise.all([pooledApp?.close(), worker?.close()]);
  await relay?.close();
  await rm(pluginsDir, { recursive: true, force: true });
});

function entryOf(app: FastifyInstance, name: string): FunctionEntry {
  const entry = app.vitrine.functionEntry(name);
  if (!entry) throw new Error(`${name} is not registered`);
  return entry;
}

function invokerOf(app: FastifyInstance, kind: 'bundle' | 'remote'): Invoker {
  const invoker = hostInvokersOf(app).get(kind);
  if (!invoker) throw new Error(`no ${kind} invoker`);
  return invoker;
}

const inline = new InlineInvoker();
invokerConformance('inline', () => ({
  invoker: () => inline,
  // The bundle's own entry (schema, parameter layout), run from the imported module on this thread.
  entry: (name) => {
    const entry = entryOf(pooledApp, name);
    const exportName = entry.source.kind === 'bundle' ? entry.source.exportName : name;
    return { ...entry, source: { kind: 'inline', fn: bundle[exportName]! } };
  },
}));

invokerConformance('pooled', () => ({
  invoker: () => invokerOf(pooledApp, 'bundle'),
  entry: (name) => entryOf(pooledApp, name),
}));

invokerConformance('remote', () => ({
  invoker: () => invokerOf(relay, 'remote'),
  entry: (name) => entryOf(relay, `w:${name}`),
}));
