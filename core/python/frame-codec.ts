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

/** The bytes of one frame, blocks by reference (nothing is copied but the header). */
export function encodeFrame(header: FrameHeader, blocks: readonly ArrayBufferView[] = []): Buffer[] {
  const json = Buffer.from(JSON.stringify({ ...header, sizes: blocks.map((b) => b.byteLength) }), 'utf8');
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32LE(json.length, 0);
  return [head, json, ...blocks.filter((b) => b.byteLength > 0).map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))];
}

/**
 * Parses frames out of a byte stream pushed in chunks of any size. `onFrame` is called once
 * per complete frame, in order; a malformed stream throws from `push`.
 */
export class FrameReader {
  #onFrame: (frame: Frame) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #header: FrameHeader | null = null;
  #blocks: Uint8Array[] = [];
  #filled = 0;

  constructor(onFrame: (frame: Frame) => void) {
    this.#onFrame = onFrame;
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
    if (size > MAX_HEADER_BYTES) throw new Error(`plugin process sent a frame header of ${size} bytes`);
    if (joined.length < 4 + size) {
      this.#pending = [joined];
      return;
    }
    const header = JSON.parse(joined.toString('utf8', 4, 4 + size)) as FrameHeader;
    const sizes = Array.isArray(header.sizes) ? header.sizes : [];
    this.#blocks = sizes.map((n) => new Uint8Array(new SharedArrayBuffer(Number(n))));
    this.#filled = 0;
    this.#header = header;
    const rest = joined.subarray(4 + size);
    this.#pending = rest.length > 0 ? [rest] : [];
    this.#pendingBytes = rest.length;
    this.#finishIfComplete();
  }

  /** Copies bytes of `chunk` from `at` into the current blocks; returns where it stopped. */
  #fill(chunk: Buffer, at: number): number {
    while (at < chunk.length && this.#header) {
      const index = this.#blockIndex();
      const block = this.#blocks[index]!;
      const offset = this.#filled - this.#offsetOf(index);
      const take = Math.min(block.length - offset, chunk.length - at);
      block.set(chunk.subarray(at, at + take), offset);
      this.#filled += take;
      at += take;
      this.#finishIfComplete();
    }
    return at;
  }

  #offsetOf(index: number): number {
    let offset = 0;
    for (let i = 0; i < index; i++) offset += this.#blocks[i]!.length;
    return offset;
  }

  #blockIndex(): number {
    let offset = 0;
    for (let i = 0; i < this.#blocks.length; i++) {
      offset += this.#blocks[i]!.length;
      if (this.#filled < offset) return i;
    }
    return this.#blocks.length - 1;
  }

  #finishIfComplete(): void {
    if (!this.#header) return;
    const total = this.#blocks.reduce((sum, b) => sum + b.length, 0);
    if (this.#filled < total) return;
    const frame = { header: this.#header, blocks: this.#blocks };
    this.#header = null;
    this.#blocks = [];
    this.#filled = 0;
    this.#onFrame(frame);
    if (this.#pendingBytes > 0) this.#tryHeader();
  }
}
