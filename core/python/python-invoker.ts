/**
 * @module python-invoker
 * Runs Python plugin functions: a thread slot from the room scheduler first (so Python runs
 * share the machine round-robin across rooms with TypeScript ones, short work keeping its
 * lane), then a warm process from the pool. Values travel in the call frame's JSON header;
 * input results as raw blocks beside it. The answer is the result, the function's exception
 * (its type and message: the traceback goes to the log) or the news that the process ended.
 */
import path from 'node:path';
import { createHostError } from '../errors.ts';
import type { InvokeContext, Invoker } from '../invoke/invoker.ts';
import type { RoomScheduler } from '../invoke/room-scheduler.ts';
import { inputKindOf } from '../wire/input-schema.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { Frame } from './frame-codec.ts';
import { PythonUnavailable, type PythonPool } from './python-pool.ts';
import { PythonProcessExit } from './python-process.ts';
import { inputSpec, ResultFrameError, toStoredResult } from './python-results.ts';

export class PythonInvoker implements Invoker {
  #pool: () => Promise<PythonPool>;
  #scheduler: RoomScheduler;
  #log: (line: string) => void;
  #nextId = 1;

  /** `pool` resolves with the running pool (started on first need) or rejects when Python is off. */
  constructor(pool: () => Promise<PythonPool>, scheduler: RoomScheduler, log: (line: string) => void) {
    this.#pool = pool;
    this.#scheduler = scheduler;
    this.#log = log;
  }

  async invoke(entry: FunctionEntry, values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    const source = entry.source;
    if (source.kind !== 'bundle' || source.runtime !== 'python') throw new Error(`the Python invoker cannot run ${entry.name}`);
    if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    const pool = await this.#pool();
    const release = await this.#scheduler.acquire(ctx.roomId ?? '', ctx.signal, entry.name);
    let answer: Frame;
    try {
      const { header, blocks } = this.#callFrame(entry, values);
      answer = await pool.call(header, blocks, ctx.signal, (frame) => {
        if (ctx.signal.aborted) return;
        // A batch of reports (the process sends those that come close together in one frame).
        const reports = Array.isArray(frame.header.reports) ? (frame.header.reports as { text?: unknown; fraction?: unknown }[]) : [];
        const ts = Date.now() / 1000;
        for (const { text, fraction } of reports) {
          ctx.onProgress?.({ text: String(text ?? ''), fraction: typeof fraction === 'number' && Number.isFinite(fraction) ? fraction : null, ts });
        }
      }, release.running, release.short);
    } catch (error) {
      if (ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
      if (error instanceof PythonProcessExit) throw createHostError('SPC_ERR_PLUGIN_PROCESS_EXITED', entry.name, error.message);
      if (error instanceof PythonUnavailable)
        throw Object.assign(createHostError('SPC_ERR_PYTHON_UNAVAILABLE', entry.name, error.message), { headers: { 'retry-after': '5' } });
      throw error;
    } finally {
      release(!ctx.signal.aborted);
    }
    return this.#outcome(entry, answer, ctx);
  }

  #callFrame(entry: FunctionEntry, values: Record<string, unknown>): { header: Record<string, unknown> & { t: string }; blocks: ArrayBufferView[] } {
    const source = entry.source as Extract<FunctionEntry['source'], { kind: 'bundle' }>;
    const properties = ((entry.schema as { properties?: Record<string, unknown> }).properties ?? {}) as Record<string, unknown>;
    const args: Record<string, unknown> = {};
    const inputs: Record<string, unknown>[] = [];
    const blocks: ArrayBufferView[] = [];
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) continue;
      if (inputKindOf(properties[name]) && value && typeof value === 'object' && 'type' in value) {
        const input = inputSpec(name, value as StoredResult);
        inputs.push(input.spec);
        blocks.push(...input.blocks);
      } else args[name] = value;
    }
    const reporter = entry.parameters.find((p) => p.kind === 'reporter')?.name ?? null;
    return {
      header: {
        t: 'call',
        id: this.#nextId++,
        plugin: { name: entry.plugin ?? entry.name, dir: path.dirname(source.modulePath), entry: path.basename(source.modulePath), version: source.version },
        function: source.exportName,
        return_type: entry.return_type,
        args,
        inputs,
        reporter,
      },
      blocks,
    };
  }

  #outcome(entry: FunctionEntry, answer: Frame, ctx: InvokeContext): StoredResult {
    const header = answer.header;
    if (header.t === 'result') {
      try {
        return toStoredResult(answer, entry.return_type);
      } catch (error) {
        if (error instanceof ResultFrameError) throw createHostError('SPC_ERR_RESULT_INVALID', entry.name, error.message);
        throw error;
      }
    }
    if (header.kind === 'cancelled' || ctx.signal.aborted) throw createHostError('SPC_ERR_JOB_CANCELLED');
    if (header.kind === 'result') throw createHostError('SPC_ERR_RESULT_INVALID', entry.name, String(header.message));
    if (typeof header.traceback === 'string') this.#log(`function '${entry.name}' raised:\n${header.traceback.trimEnd()}`);
    throw createHostError('SPC_ERR_FUNCTION_FAILED', entry.name, String(header.message ?? 'failed'));
  }
}
