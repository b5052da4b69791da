/**
 * @module pooled-invoker
 * Runs plugin bundle functions on the compute pool. Progress arrives on a MessagePort made per
 * run. Cancelling first asks the function to stop (its AbortSignal aborts; its next `report()`
 * throws); if it is still running after the grace period, the worker thread is terminated
 * (tinypool replaces it), so a function that never checks still stops using the CPU.
 * Each run first takes a thread from the room scheduler, which shares threads fairly across
 * rooms and learns from each run how long the function takes (for its short lane).
 */
import { MessageChannel } from 'node:worker_threads';
import type Tinypool from 'tinypool';
import { createHostError, wrapHostError } from '../errors.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import { outcomeError } from '../results/outcome-error.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { InvokeOutcome, InvokeTask, WorkerPortMessage } from '../workers/protocol.ts';
import { runTask } from '../workers/task-pool.ts';
import { indexOfKind, toPositionalArgs, type InvokeContext, type Invoker } from './invoker.ts';
import type { RoomScheduler } from './room-scheduler.ts';

/** Longest wait for a finished run's last progress messages. */
const END_WAIT_MS = 1000;

/** A run's timing: `running()` when its call starts, and the call's length once its thread said it. */
interface RunTiming {
  running(): void;
  ms?: number;
}

export class PooledInvoker implements Invoker {
  #pool: Tinypool;
  #graceMs: number;
  #scheduler: RoomScheduler;

  constructor(pool: Tinypool, scheduler: RoomScheduler, options: { cancelGraceMs: number }) {
    this.#pool = pool;
    this.#scheduler = scheduler;
    this.#graceMs = options.cancelGraceMs;
  }

  async invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    if (entry.source.kind !== 'bundle') throw new Error(`PooledInvoker cannot run a ${entry.source.kind} function`);
    const release = await this.#scheduler.acquire(ctx.roomId ?? '', ctx.signal, entry.name);
    const timing: RunTiming = { running: release.running };
    try {
      return await this.#run(entry, values, ctx, timing);
    } finally {
      // A cancelled run says nothing about how long the function takes.
      release(!ctx.signal.aborted, timing.ms);
    }
  }

  async #run(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext, timing: RunTiming): Promise<StoredResult> {
    if (entry.source.kind !== 'bundle') throw new Error(`PooledInvoker cannot run a ${entry.source.kind} function`);
    if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    const { port1, port2 } = new MessageChannel();
    const cancelFlag = new SharedArrayBuffer(4);
    const terminate = new AbortController();
    let graceTimer: NodeJS.Timeout | undefined;
    // The result and the progress travel on different ports, so a run's last messages can
    // arrive after its result: the run counts as finished once its `end` marker is in.
    let markEnded: () => void = () => {};
    const ended = new Promise<void>((resolve) => (markEnded = resolve));
    port1.on('message', (message: WorkerPortMessage) => {
      if (message.type === 'end') {
        // The call's length as its thread measured it: a busy host reads its messages late.
        if (message.ms !== undefined) ctx.onRan?.((timing.ms = message.ms));
        markEnded();
      }
      // A fresh thread first starts and loads the bundle: only the call itself is the run.
      else if (message.type === 'running') {
        timing.running();
        ctx.onRunning?.();
      }
      else if (message.type === 'progress' && !ctx.signal.aborted) for (const report of message.reports) ctx.onProgress?.(report);
    });
    port1.once('close', () => markEnded());
    const onAbort = () => {
      Atomics.store(new Int32Array(cancelFlag), 0, 1);
      port1.postMessage({ type: 'cancel' });
      graceTimer = setTimeout(() => terminate.abort(), this.#graceMs);
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const task: InvokeTask = {
      op: 'invoke',
      modulePath: entry.source.modulePath,
      version: entry.source.version,
      exportName: entry.source.exportName,
      functionName: entry.name,
      returnType: entry.return_type,
      args: toPositionalArgs(entry, values),
      reporterIndex: indexOfKind(entry, 'reporter'),
      signalIndex: indexOfKind(entry, 'signal'),
      port: port2,
      cancelFlag,
    };
    let outcome: InvokeOutcome;
    try {
      outcome = await runTask(this.#pool, task, { transferList: [port2], signal: terminate.signal });
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, END_WAIT_MS).unref())]);
    } catch (error) {
      if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
      throw wrapHostError(error, 'SPC_ERR_WORKER_CRASHED', entry.name, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(graceTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      port1.close();
    }
    if (outcome.ok) return outcome.result;
    if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    throw outcomeError(outcome, entry.name);
  }
}
