/**
 * @module voice-room
 * A room's voice (room-voice.ts) on a host with speech services: the speaker floor, and the
 * agent's replies spoken when the host can speak. Taking the floor while the agent speaks cuts
 * it off: its speech stops (`agent_audio_end`), its turn is interrupted, then the floor is the
 * new speaker's (`speaker_bound`). A socket holding the floor that binds again is told it holds
 * it; any other is told the slot is held.
 *
 * One socket at a time holds the floor (`bind`), its audio frames are kept as one utterance,
 * and letting it go (`unbind`, or leaving) turns an utterance of at least 0.5 s into a
 * `transcript` to every socket and a turn, or just frees the floor. Whatever happens, the floor
 * is freed 90 s after it was taken (a muted microphone or a crashed client holds no one off).
 * Audio from a socket that does not hold the floor is dropped without a word: a client keeps
 * streaming until `speaker_released` reaches it.
 */
import { hostFrames } from '../agent-frames.ts';
import type { AgentMember } from '../agent-member.ts';
import type { BinaryFrame } from '../binary-frame.ts';
import { resample, samplesOf, wavOf } from './pcm-audio.ts';
import type { RoomVoice, VoiceHost } from './room-voice.ts';
import { ReplySpeech } from './reply-speech.ts';
import { SpeechFault, type SpeechToText, type TextToSpeech } from './speech-services.ts';

/** Most audio one utterance keeps. */
const MAX_UTTERANCE_SECONDS = 90;
/** Shortest utterance worth transcribing: anything shorter is a release of the floor. */
const MIN_UTTERANCE_SECONDS = 0.5;
/** Rates a microphone frame may say it has. */
const MIN_RATE = 8000;
const MAX_RATE = 192000;

/** Why an audio frame's header is refused, or null. */
function audioHeaderProblem(header: Record<string, unknown>): string | null {
  const rate = header.rate;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < MIN_RATE || rate > MAX_RATE) {
    return `an audio frame's rate must be an integer from ${MIN_RATE} to ${MAX_RATE}, got ${JSON.stringify(rate) ?? 'none'}`;
  }
  if (header.format !== undefined && header.format !== 's16le') return `an audio frame's format must be s16le, got ${JSON.stringify(header.format)}`;
  if (header.channels !== undefined && header.channels !== 1) return `an audio frame has 1 channel, got ${JSON.stringify(header.channels)}`;
  return null;
}

/**
 * What the floor's holder said, as its audio frames arrive: each frame's PCM kept at the rate it
 * came in, at most MAX_UTTERANCE_SECONDS of it (a holder that keeps talking past that is told
 * once, and the rest is not kept), and made into one WAV file at the first frame's rate for the
 * speech-to-text service.
 */
class Utterance {
  #chunks: { samples: Int16Array; rate: number }[] = [];
  #seconds = 0;
  /** Whether audio past the bound was refused (the holder is told once). */
  full = false;

  get seconds(): number {
    return this.#seconds;
  }

  /** Keeps `pcm` at `rate`; false when it would pass the bound (nothing of it is kept). */
  add(pcm: Uint8Array, rate: number): boolean {
    const samples = samplesOf(pcm);
    const seconds = samples.length / rate;
    if (this.#seconds + seconds > MAX_UTTERANCE_SECONDS) return false;
    this.#chunks.push({ samples, rate });
    this.#seconds += seconds;
    return true;
  }

  /** The utterance as one WAV file, at the rate of its first frame. */
  wav(): Buffer {
    const rate = this.#chunks[0]?.rate ?? 16000;
    const parts = this.#chunks.map((chunk) => resample(chunk.samples, chunk.rate, rate));
    const all = new Int16Array(parts.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    return wavOf(all, rate);
  }
}

/** Longest the floor is held, from when it was taken. */
const FLOOR_HOLD_MS = 90_000;

export class VoiceRoom implements RoomVoice {
  #host: VoiceHost;
  #stt: SpeechToText;
  #speech: ReplySpeech | null;
  /** Who holds the floor, and what they said so far. */
  #holder: AgentMember | null = null;
  #utterance = new Utterance();
  #timer: NodeJS.Timeout | null = null;
  /** Utterances being transcribed (the room is kept meanwhile). */
  #transcribing = 0;

  constructor(host: VoiceHost, stt: SpeechToText, tts: TextToSpeech | null, private readonly holdMs = FLOOR_HOLD_MS) {
    this.#host = host;
    this.#stt = stt;
    this.#speech = tts ? new ReplySpeech(tts, host) : null;
  }

  get busy(): boolean {
    return this.#holder !== null || this.#transcribing > 0 || (this.#speech?.speaking ?? false);
  }

  /** `member` takes the free floor; every socket hears who holds it. */
  bind(member: AgentMember): void {
    const holder = this.#holder;
    if (holder === member) return member.send(hostFrames.speakerBound(member.clientId));
    if (holder) return member.send(hostFrames.error('speaker slot is held'));
    if (this.#speech?.speaking) {
      this.#speech.silence(true);
      this.#host.interruptTurn();
    }
    this.#holder = member;
    this.#utterance = new Utterance();
    this.#timer = setTimeout(() => this.#expire(member), this.holdMs).unref();
    this.#host.broadcast(hostFrames.speakerBound(member.clientId));
  }

  audio(member: AgentMember, frame: BinaryFrame): void {
    const problem = audioHeaderProblem(frame.header);
    if (problem) return member.send(hostFrames.error(problem));
    if (this.#holder !== member) return;
    if (this.#utterance.add(frame.payload, frame.header.rate as number) || this.#utterance.full) return;
    this.#utterance.full = true;
    member.send(hostFrames.error(`an utterance keeps at most ${MAX_UTTERANCE_SECONDS} s of audio: the rest is not kept`));
  }

  /** `member` lets the floor go: an utterance long enough becomes a transcript and a turn. */
  unbind(member: AgentMember): void {
    if (this.#holder !== member) return;
    const utterance = this.#utterance;
    this.#free();
    if (utterance.seconds < MIN_UTTERANCE_SECONDS) return this.#host.broadcast(hostFrames.speakerReleased());
    this.#transcribing++;
    void this.#transcribe(member, utterance)
      .catch((error: unknown) => this.#host.fault('an utterance could not be made a turn', error))
      .finally(() => this.#transcribing--);
  }

  left(member: AgentMember): void {
    this.unbind(member);
  }

  spoken(piece: string): void {
    this.#speech?.spoken(piece);
  }

  replyDone(): void {
    this.#speech?.replyDone();
  }

  silence(interrupted: boolean): void {
    this.#speech?.silence(interrupted);
  }

  close(): void {
    this.#free();
    this.#speech?.silence(true);
  }

  /** Whatever comes of it (a failure, silence, a transcript), the floor is then released; a transcript is a turn. */
  async #transcribe(member: AgentMember, utterance: Utterance): Promise<void> {
    const text = await this.#stt.transcribe(utterance.wav()).catch((error: unknown) => {
      this.#host.fault('an utterance could not be transcribed', error);
      member.send(hostFrames.error(error instanceof SpeechFault ? error.message : 'speech to text failed: internal error'));
      return null;
    });
    if (text === '') member.send(hostFrames.status('(silence)'));
    if (text) this.#host.broadcast(hostFrames.transcript(text, member.clientId));
    this.#host.broadcast(hostFrames.speakerReleased());
    if (text) this.#host.turn(member, text);
  }

  /** The floor was held past its time: freed, whatever was said dropped. */
  #expire(member: AgentMember): void {
    if (this.#holder !== member) return;
    this.#free();
    member.send(hostFrames.status('(silence)'));
    this.#host.broadcast(hostFrames.speakerReleased());
  }

  #free(): void {
    this.#holder = null;
    this.#utterance = new Utterance();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
