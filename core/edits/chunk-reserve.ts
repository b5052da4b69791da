/**
 * @module chunk-reserve
 * Shared memory for the chunks edits write, touched before it is needed by a thread of its own.
 * Memory new to the process costs a page fault at each page's first touch, and on a virtual
 * machine that hands pages out one at a time this was most of an edit's time: about 3 ms to
 * fill one new 32³ chunk of uint32, where filling touched memory takes 0.2 ms. So for each size
 * of chunk asked for, a few are kept ready: taken from the system, touched by the helper thread
 * (a write of zero on each page, which leaves them zero) and handed out whole. Below half of
 * them, more are asked for; with none ready, a chunk is taken new, as without the reserve.
 * The helper never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';

/** Chunks kept ready for each size asked for. */
const READY = 48;
/** Bytes of a page: the helper writes one value in each. */
const PAGE = 4096;

/** The helper: touches every page of the buffers it is given, at a lower priority than the host's event loop, and gives them back. */
const HELPER = `
const { parentPort } = require('node:worker_threads');
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (tid > 0) require('node:os').setPriority(tid, 10);
} catch {}
parentPort.on('message', (buffers) => {
  for (const buffer of buffers) {
    const bytes = new Uint8Array(buffer);
    for (let i = 0; i < bytes.length; i += ${PAGE}) bytes[i] = 0;
  }
  parentPort.postMessage(buffers);
});
`;

let helper: Worker | null = null;
/** Touched buffers by byte length. */
const ready = new Map<number, SharedArrayBuffer[]>();
/** Sizes with buffers at the helper now. */
const asked = new Set<number>();

function touch(bytes: number): void {
  if (asked.has(bytes)) return;
  if (!helper) {
    helper = new Worker(HELPER, { eval: true });
    helper.unref();
    helper.on('message', (buffers: SharedArrayBuffer[]) => {
      const size = buffers[0]!.byteLength;
      asked.delete(size);
      ready.get(size)!.push(...buffers);
    });
    // A helper that failed is started again at the next ask; meanwhile chunks are taken new.
    helper.on('error', () => {
      helper = null;
      asked.clear();
    });
  }
  asked.add(bytes);
  const fill = READY - (ready.get(bytes)?.length ?? 0);
  helper.postMessage(Array.from({ length: fill }, () => new SharedArrayBuffer(bytes)));
}

/** A zeroed shared buffer of `bytes`: a touched one when one is ready, else new. */
export function reservedBuffer(bytes: number): SharedArrayBuffer {
  let list = ready.get(bytes);
  if (!list) ready.set(bytes, (list = []));
  const buffer = list.pop();
  if (list.length < READY / 2) touch(bytes);
  return buffer ?? new SharedArrayBuffer(bytes);
}

/** Touched buffers of `bytes` ready now. */
export function readyBuffers(bytes: number): number {
  return ready.get(bytes)?.length ?? 0;
}
