/**
 * @module task-worker
 * The worker-thread entry (bundled by worker-script.ts, run by tinypool). `invoke` imports a
 * plugin bundle once per version, calls the export with the injected reporter and signal, and
 * checks the result; `json` encodes a stored result as JSON text. Progress leaves on the task's
 * MessagePort; a cancel arrives on it (cooperative: the signal aborts, and the next `report`
 * call throws). If the function does not stop, the host terminates this thread.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import Tinypool from 'tinypool';
import type { ProgressReporter } from '../sdk/plugin-types.ts';
import type { HostPortMessage, InvokeOutcome, InvokeTask, JsonTask, WorkerPortMessage } from './protocol.ts';
import { normalizeResult, ResultShapeError } from './normalize-result.ts';
import { toJsonResult } from './to-json-result.ts';

// Plugin work yields the CPU to the host's event loop: on Linux a thread has its own nice
// value, so lowering this thread's priority keeps requests (progress polls above all) fast
// while every core is busy with jobs. Elsewhere this is a no-op.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
} catch {
  // No per-thread priority on this platform.
}

// A plugin calling process.exit would end this thread with the task unanswered.
process.exit = ((code?: number) => {
  throw new Error(`process.exit(${code ?? ''}) is not allowed in a plugin function`);
}) as typeof process.exit;

const modules = new Map<string, Promise<Record<string, unknown>>>();

function load(modulePath: string, version: string): Promise<Record<string, unknown>> {
  const url = `${pathToFileURL(modulePath).href}?v=${encodeURIComponent(version)}`;
  let mod = modules.get(url);
  if (!mod) {
    mod = import(url) as Promise<Record<string, unknown>>;
    mod.catch(() => modules.delete(url));
    modules.set(url, mod);
  }
  return mod;
}

class CancelledError extends Error {}

export async function invoke(task: InvokeTask): Promise<InvokeOutcome> {
  const { port } = task;
  const flag = new Int32Array(task.cancelFlag);
  const controller = new AbortController();
  const onMessage = (message: HostPortMessage) => {
    if (message.type === 'cancel') controller.abort(new CancelledError('cancelled'));
  };
  port.on('message', onMessage);
  try {
    const mod = await load(task.modulePath, task.version);
    const fn = mod[task.exportName];
    if (typeof fn !== 'function') {
      return { ok: false, kind: 'function', message: `the bundle exports no function '${task.exportName}'` };
    }
    const reporter: ProgressReporter = {
      report(text: string, fraction?: number) {
        if (Atomics.load(flag, 0) === 1) throw new CancelledError('cancelled');
        const message: WorkerPortMessage = {
          type: 'progress',
          text: String(text),
          fraction: typeof fraction === 'number' && Number.isFinite(fraction) ? fraction : null,
          ts: Date.now() / 1000,
        };
        port.postMessage(message);
      },
    };
    const args = [...task.args];
    if (task.reporterIndex >= 0) args[task.reporterIndex] = reporter;
    if (task.signalIndex >= 0) args[task.signalIndex] = controller.signal;
    let value: unknown;
    try {
      value = await (fn as (...a: unknown[]) => unknown)(...args);
    } catch (error) {
      if (error instanceof CancelledError || controller.signal.aborted || Atomics.load(flag, 0) === 1) {
        return { ok: false, kind: 'cancelled', message: 'cancelled' };
      }
      return { ok: false, kind: 'function', message: error instanceof Error ? error.message : String(error) };
    }
    try {
      return { ok: true, result: normalizeResult(value, task.returnType) };
    } catch (error) {
      if (error instanceof ResultShapeError) return { ok: false, kind: 'result', message: error.message };
      throw error;
    }
  } finally {
    port.off('message', onMessage);
    const end: WorkerPortMessage = { type: 'end' };
    port.postMessage(end);
    port.close();
  }
}

export function json(task: JsonTask): Uint8Array {
  const bytes = Buffer.from(toJsonResult(task.result), 'utf8');
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Small buffers live in Node's shared allocation pool, which must not be moved away;
  // large ones own their memory and are handed back without a copy.
  if (bytes.buffer.byteLength !== bytes.byteLength) return view;
  return Tinypool.move(view) as unknown as Uint8Array;
}
