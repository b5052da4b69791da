/**
 * @module speaker-floor
 * A room's speaker floor: one socket at a time holds it (`bind`), its audio frames are kept as
 * one utterance, and letting it go (`unbind`, or leaving) turns an utterance of at least 0.5 s
 * into a `transcript` to every socket and a turn, or just frees the floor. Whatever happens, the
 * floor is freed 90 s after it was taken (a muted microphone or a crashed client holds no one
 * off). Audio from a socket that does not hold the floor is dropped without a word: a client
 * keeps streaming until `speaker_released` reaches it.
 */
import { hostFrames } from '../agent-frames.ts';
import type { AgentMember } from '../agent-member.ts';
import type { BinaryFrame } from '../binary-frame.ts';
import { SpeechFault, type SpeechToText } from './speech-services.ts';
import { audioHeaderProblem, MAX_UTTERANCE_SECONDS, MIN_UTTERANCE_SECONDS, Utterance } from './utterance.ts';
import type { VoiceHost } from './room-voice.ts';

/** Longest the floor is held, from when it was taken. */
export const FLOOR_HOLD_MS = 90_000;

export class SpeakerFloor {
  #host: VoiceHost;
  #stt: SpeechToText;
  #holder: AgentMember | null = null;
  #utterance = new Utterance();
  #timer: NodeJS.Timeout | null = null;
  /** Utterances being transcribed (the room is kept meanwhile). */
  #transcribing = 0;

  constructor(host: VoiceHost, stt: SpeechToText, readonly holdMs = FLOOR_HOLD_MS) {
    this.#host = host;
    this.#stt = stt;
  }

  get holder(): AgentMember | null {
    return this.#holder;
  }

  get busy(): boolean {
    return this.#holder !== null || this.#transcribing > 0;
  }

  /** `member` takes the free floor; every socket hears who holds it. */
  take(member: AgentMember): void {
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

  /** `member` lets the floor go (or left): an utterance long enough becomes a transcript and a turn. */
  release(member: AgentMember): void {
    if (this.#holder !== member) return;
    const utterance = this.#utterance;
    this.#free();
    if (utterance.seconds < MIN_UTTERANCE_SECONDS) return this.#host.broadcast(hostFrames.speakerReleased());
    this.#transcribing++;
    void this.#transcribe(member, utterance)
      .catch((error: unknown) => this.#host.fault('an utterance could not be made a turn', error))
      .finally(() => this.#transcribing--);
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

  close(): void {
    this.#free();
  }
}
