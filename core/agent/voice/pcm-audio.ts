/**
 * @module pcm-audio
 * Mono 16-bit little-endian PCM as the agent socket carries it: taken from a frame's bytes,
 * brought to one rate (linear interpolation: speech, not music), wrapped in a WAV file for a
 * speech-to-text service, and read back out of a WAV file a text-to-speech service may answer.
 */

/** The samples of s16le bytes (an odd last byte is dropped). */
export function samplesOf(bytes: Uint8Array): Int16Array {
  const count = Math.floor(bytes.byteLength / 2);
  const samples = new Int16Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  for (let i = 0; i < count; i++) samples[i] = view.getInt16(i * 2, true);
  return samples;
}

/** s16le bytes of `samples`. */
export function bytesOf(samples: Int16Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) out.writeInt16LE(samples[i]!, i * 2);
  return out;
}

/** `samples` at `from` Hz brought to `to` Hz. */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to || samples.length === 0) return samples;
  const count = Math.max(1, Math.round((samples.length * to) / from));
  const out = new Int16Array(count);
  const step = from / to;
  for (let i = 0; i < count; i++) {
    const at = i * step;
    const lo = Math.min(Math.floor(at), samples.length - 1);
    const hi = Math.min(lo + 1, samples.length - 1);
    out[i] = Math.round(samples[lo]! + (samples[hi]! - samples[lo]!) * (at - lo));
  }
  return out;
}

/** A WAV file (PCM, mono, 16-bit) of `samples` at `rate`. */
export function wavOf(samples: Int16Array, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length * 2, 40);
  return Buffer.concat([header, bytesOf(samples)]);
}

/** The samples of a 16-bit PCM WAV file, mixed to mono, with their rate; null when it is not one. */
export function readWav(file: Buffer): { samples: Int16Array; rate: number } | null {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') return null;
  let channels = 1;
  let rate = 0;
  let bits = 16;
  for (let at = 12; at + 8 <= file.length; ) {
    const id = file.toString('ascii', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && body + 16 <= file.length) {
      channels = file.readUInt16LE(body + 2);
      rate = file.readUInt32LE(body + 4);
      bits = file.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (bits !== 16 || rate === 0 || channels < 1) return null;
      const frames = samplesOf(file.subarray(body, Math.min(file.length, body + size)));
      if (channels === 1) return { samples: frames, rate };
      const mono = new Int16Array(Math.floor(frames.length / channels));
      for (let i = 0; i < mono.length; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += frames[i * channels + c]!;
        mono[i] = Math.round(sum / channels);
      }
      return { samples: mono, rate };
    }
    at = body + size + (size % 2);
  }
  return null;
}
