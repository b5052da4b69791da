/**
 * @module task-pool.test
 * The typed worker-pool run: each task kind's export on the worker entry takes that kind's task
 * and answers its declared result (checked by the type checker over every kind), and a run
 * reaches the right export on a real pool with no name given; an invoke run's last message
 * carries the call's length as its thread measured it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { computeResultId } from '../../core/results/result-id.ts';
import { toJsonResult } from '../../core/results/to-json-result.ts';
import { createPools, type Pools } from '../../core/workers/pool.ts';
import type { InvokeTask, TaskKind, TaskOf, TaskResults, WorkerPortMessage } from '../../core/workers/protocol.ts';
import { runTask, TASK_EXPORTS } from '../../core/workers/task-pool.ts';
import type * as TaskWorker from '../../core/workers/task-worker.ts';
import { settled } from '../helpers/wait-for.ts';

/** The export each kind is sent to. */
type ExportOf<K extends TaskKind> = (typeof TaskWorker)[(typeof TASK_EXPORTS)[K]];

describe('task kinds and the worker entry', () => {
  it('each kind names an export that takes its task and answers its result', () => {
    expectTypeOf<{ [K in TaskKind]: Awaited<ReturnType<ExportOf<K>>> }>().toEqualTypeOf<TaskResults>();
    expectTypeOf<{ [K in TaskKind]: Parameters<ExportOf<K>>[0] }>().toEqualTypeOf<{ [K in TaskKind]: TaskOf<K> }>();
    // Every kind has an export, and no two kinds share one.
    expect(new Set(Object.values(TASK_EXPORTS)).size).toBe(Object.keys(TASK_EXPORTS).length);
  });

  it('types a run by its task: the result needs no cast', () => {
    const pool = null as unknown as Pools['encode'];
    const result = null as unknown as StoredResult;
    // Only typed, never called.
    expectTypeOf(() => runTask(pool, { op: 'hash', result })).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(() => runTask(pool, { op: 'pyramid', volume: result as StoredResult & { type: 'volume' } })).returns.toEqualTypeOf<
      Promise<(StoredResult & { type: 'volume' })[]>
    >();
    // A task of a kind that does not exist is refused by the type checker.
    // @ts-expect-error no such kind
    expectTypeOf(() => runTask(pool, { op: 'nope', result })).toBeFunction();
  });
});

describe('runTask on a real pool', () => {
  let pools: Pools;
  beforeAll(async () => {
    pools = await createPools({ computeThreads: 1 });
  });
  afterAll(() => pools?.destroy());

  const mesh = (): StoredResult => ({ type: 'mesh', vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) });

  it('reaches the export of each kind it is given', async () => {
    expect(await runTask(pools.encode, { op: 'hash', result: mesh() })).toBe(computeResultId(mesh()));
    const json = await runTask(pools.encode, { op: 'json', result: mesh() });
    expect(Buffer.from(json).toString('utf8')).toBe(toJsonResult(mesh()));
    const obj = new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    const parsed = await runTask(pools.encode, { op: 'parseFile', bytes: obj, fileName: 'triangle.obj', geometry: {}, maxDecodedBytes: 1 << 20 });
    expect(parsed.ok && parsed.result.type).toBe('mesh');
    const refused = await runTask(pools.encode, {
      op: 'parseFile',
      bytes: new Uint8Array([1, 2, 3]),
      fileName: 'nothing.npy',
      geometry: {},
      maxDecodedBytes: 1 << 20,
    });
    expect(refused).toMatchObject({ ok: false, kind: 'format' });
  });
  it('ends an invoke run with the length of the call as its thread measured it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'vitrine-task-pool-'));
    const modulePath = path.join(dir, 'index.mjs');
    await writeFile(modulePath, 'export const tri = () => ({ vertices: new Float32Array(9), indices: new Uint32Array([0, 1, 2]) });\n');
    const { port1, port2 } = new MessageChannel();
    const messages: WorkerPortMessage[] = [];
    const ended = new Promise<void>((resolve) => port1.on('message', (m: WorkerPortMessage) => (messages.push(m), m.type === 'end' && resolve())));
    const task: InvokeTask = {
      op: 'invoke', modulePath, version: '0', exportName: 'tri', functionName: 'tri', returnType: 'mesh', args: [], reporterIndex: -1, signalIndex: -1,
      port: port2, cancelFlag: new SharedArrayBuffer(4),
    };
    const outcome = await runTask(pools.compute, task, { transferList: [port2] });
    await settled(ended, 'the end message of the run');
    port1.close();
    await rm(dir, { recursive: true });
    expect(outcome.ok).toBe(true);
    expect(messages.map((m) => m.type)).toEqual(['running', 'end']);
    const end = messages[1] as { ms?: number };
    expect(typeof end.ms).toBe('number');
    expect(end.ms).toBeGreaterThanOrEqual(0);
  });
});
