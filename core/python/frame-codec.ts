/**
 * @module frame-codec
 * The frames a host and its Python plugin processes exchange over two pipes: a little-endian
 * u32 length, a UTF-8 JSON header of that length, then the raw byte blocks the header's
 * `sizes` lists. Arrays cross as the bytes they are (never JSON or base64); a block that
 * arrives is written once, straight into the shared memory the result will live in.
 */

/** A frame's header: `t` names the message; `sizes` the blocks that follow. */
export interface FrameHeader {
  t: string;
  sizes?: number[];
  [key: string]: unknown;
}

export interface Frame {
  header: FrameHeader;
  /** Each block in shared memory, so a result built on them needs no further copy. */
  blocks: Uint8Array[];
}

/** Largest header a process may send; a longer length means the stream is out of step. */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

/** A frame the reader refuses: the stream is out of step, or the frame declares more than it may. */
export class FrameError extends Error {}

/** The bytes of one frame, blocks by reference (nothing is copied but the header). */
export function encodeFrame(header: FrameHeader, blocks: readonly ArrayBufferView[] = []): Buffer[] {
  const json = Buffer.from(JSON.stringify({ ...header, sizes: blocks.map((b) => b.byteLength) }), 'utf8');
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32LE(json.length, 0);
  return [head, json, ...blocks.filter((b) => b.byteLength > 0).map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))];
}

/** The block sizes a header declares, checked: whole numbers whose sum stays within `maxBytes`. */
function declaredSizes(header: FrameHeader, maxBytes: number): number[] {
  const sizes: unknown = header.sizes ?? [];
  if (!Array.isArray(sizes)) throw new FrameError('a frame header whose sizes is not a list');
  let total = 0;
  for (const n of sizes) {
    if (!Number.isSafeInteger(n) || (n as number) < 0) throw new FrameError(`a frame header declaring a block of ${String(n)} bytes`);
    total += n as number;
  }
  if (total > maxBytes) throw new FrameError(`a frame declaring ${total} bytes, past the ${maxBytes}-byte limit of one call`);
  return sizes as number[];
}

/**
 * Parses frames out of a byte stream pushed in chunks of any size. `onFrame` is called once
 * per complete frame, in order; a malformed stream throws a FrameError from `push`.
 *
 * A process is not trusted with the host's memory: a frame's blocks together may declare at
 * most `maxBytes` (checked from the header, before anything is allocated), and each block's
 * memory is taken only once its first byte arrives. So a frame that declares much and sends
 * little costs the host little.
 */
export class FrameReader {
  #onFrame: (frame: Frame) => void;
  #maxBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #header: FrameHeader | null = null;
  #sizes: number[] = [];
  #blocks: (Uint8Array | null)[] = [];
  /** The block being filled and how much of it is in. */
  #index = 0;
  #offset = 0;

  constructor(onFrame: (frame: Frame) => void, maxBytes = Number.MAX_SAFE_INTEGER) {
    this.#onFrame = onFrame;
    this.#maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.#header) {
        at = this.#fill(chunk, at);
        continue;
      }
      this.#pending.push(at === 0 ? chunk : chunk.subarray(at));
      this.#pendingBytes += chunk.length - at;
      at = chunk.length;
      this.#tryHeader();
      if (this.#header && this.#pendingBytes > 0) {
        // The rest of what was pending belongs to the blocks.
        const rest = Buffer.concat(this.#pending);
        this.#pending = [];
        this.#pendingBytes = 0;
        this.push(rest);
        return;
      }
    }
  }

  #tryHeader(): void {
    if (this.#pendingBytes < 4) return;
    const joined = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
    const size = joined.readUInt32LE(0);
    if (size > MAX_HEADER_BYTES) throw new FrameError(`a frame header of ${size} bytes`);
    if (joined.length < 4 + size) {
      this.#pending = [joined];
      return;
    }
    let header: FrameHeader;
    try {
      header = JSON.parse(joined.toString('utf8', 4, 4 + size)) as FrameHeader;
    } catch {
      throw new FrameError('a frame header that is not JSON');
    }
    if (typeof header !== 'object' || header === null) throw new FrameError('a frame header that is not an object');
    this.#sizes = declaredSizes(header, this.#maxBytes);
    this.#blocks = this.#sizes.map(() => null);
    this.#index = 0;
    this.#offset = 0;
    this.#header = header;
    const rest = joined.subarray(4 + size);
    this.#pending = rest.length > 0 ? [rest] : [];
    this.#pendingBytes = rest.length;
    this.#finishIfComplete();
  }

  /** Copies bytes of `chunk` from `at` into the current blocks; returns where it stopped. */
  #fill(chunk: Buffer, at: number): number {
    while (at < chunk.length && this.#header) {
      const size = this.#sizes[this.#index]!;
      const block = (this.#blocks[this.#index] ??= new Uint8Array(new SharedArrayBuffer(size)));
      const take = Math.min(size - this.#offset, chunk.length - at);
      block.set(chunk.subarray(at, at + take), this.#offset);
      this.#offset += take;
      at += take;
      this.#finishIfComplete();
    }
    return at;
  }

  #finishIfComplete(): void {
    if (!this.#header) return;
    // Past the blocks that are full (empty ones are full at once).
    while (this.#index < this.#sizes.length && this.#offset >= this.#sizes[this.#index]!) {
      this.#blocks[this.#index] ??= new Uint8Array(new SharedArrayBuffer(0));
      this.#index++;
      this.#offset = 0;
    }
    if (this.#index < this.#sizes.length) return;
    const frame = { header: this.#header, blocks: this.#blocks as Uint8Array[] };
    this.#header = null;
    this.#blocks = [];
    this.#sizes = [];
    this.#onFrame(frame);
    if (this.#pendingBytes > 0) this.#tryHeader();
  }
}
