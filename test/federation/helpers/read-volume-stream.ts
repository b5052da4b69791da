/**
 * @module read-volume-stream
 * Reads a volume envelope response as a stream, keeping only its preamble, its byte count and
 * the values at a few sampled data offsets: a large volume is checked without holding it.
 */

export interface StreamedVolume {
  preamble: Record<string, unknown>;
  dataBytes: number;
  samples: Map<number, number>;
}

export async function readVolumeStream(response: Response, sampleOffsets: number[]): Promise<StreamedVolume> {
  if (!response.body) throw new Error('no body');
  const wanted = [...sampleOffsets].sort((a, b) => a - b);
  const samples = new Map<number, number>();
  let head = Buffer.alloc(0);
  let preamble: Record<string, unknown> | null = null;
  let dataBytes = 0;
  let next = 0;
  for await (const part of response.body as unknown as AsyncIterable<Uint8Array>) {
    let chunk = Buffer.from(part.buffer, part.byteOffset, part.byteLength);
    if (!preamble) {
      head = Buffer.concat([head, chunk]);
      if (head.length < 4) continue;
      const length = head.readUInt32LE(0);
      if (head.length < 4 + length) continue;
      preamble = JSON.parse(head.subarray(4, 4 + length).toString('utf8')) as Record<string, unknown>;
      chunk = head.subarray(4 + length);
    }
    while (next < wanted.length && wanted[next]! < dataBytes + chunk.length) {
      samples.set(wanted[next]!, chunk[wanted[next]! - dataBytes]!);
      next++;
    }
    dataBytes += chunk.length;
  }
  if (!preamble) throw new Error('the response ended inside the preamble');
  return { preamble, dataBytes, samples };
}
