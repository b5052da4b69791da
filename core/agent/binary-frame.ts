/**
 * @module binary-frame
 * The agent socket's binary frames, both ways: a little-endian u32 giving the header's length,
 * that many bytes of UTF-8 JSON header (an object whose `kind` says what follows), then the
 * payload. Microphone audio and screenshots come in; speech goes out. A frame whose header length
 * points past its end, or whose header is not a JSON object, is refused with the reason.
 */
import { FrameProblem } from './agent-frames.ts';

/** The header of a binary frame. */
export type BinaryHeader = Record<string, unknown> & { kind?: unknown };

export interface BinaryFrame {
  header: BinaryHeader;
  payload: Buffer;
}

/** The frame of `header` and `payload`. */
export function encodeBinary(header: Record<string, unknown>, payload: Uint8Array): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length, 0);
  return Buffer.concat([length, json, payload]);
}

/** Reads a binary frame; a {@link FrameProblem} names what is wrong with it. */
export function decodeBinary(data: Buffer): BinaryFrame | FrameProblem {
  if (data.length < 4) return new FrameProblem('truncated frame: less than 4 bytes');
  const headerLength = data.readUInt32LE(0);
  if (headerLength > data.length - 4) return new FrameProblem(`truncated frame: the header says ${headerLength} bytes, ${data.length - 4} follow`);
  let header: unknown;
  try {
    header = JSON.parse(data.subarray(4, 4 + headerLength).toString('utf8'));
  } catch (error) {
    return new FrameProblem(`invalid header JSON: ${(error as Error).message}`);
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return new FrameProblem('a binary header must be a JSON object');
  return { header: header as BinaryHeader, payload: data.subarray(4 + headerLength) };
}

/** The header of speech going out: 24 kHz mono 16-bit PCM, numbered from 0 within a reply. */
export function ttsHeader(seq: number): Record<string, unknown> {
  return { kind: 'tts', rate: 24000, format: 's16le', channels: 1, seq };
}
