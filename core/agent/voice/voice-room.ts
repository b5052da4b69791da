/**
 * @module voice-room
 * A room's voice (room-voice.ts) on a host with speech services: the speaker floor, and the
 * agent's replies spoken when the host can speak. Taking the floor while the agent speaks cuts
 * it off: its speech stops (`agent_audio_end`), its turn is interrupted, then the floor is the
 * new speaker's (`speaker_bound`). A socket holding the floor that binds again is told it holds
 * it; any other is told the slot is held.
 */
import { hostFrames } from '../agent-frames.ts';
import type { AgentMember } from '../agent-member.ts';
import type { BinaryFrame } from '../binary-frame.ts';
import type { RoomVoice, VoiceHost } from './room-voice.ts';
import { ReplySpeech } from './reply-speech.ts';
import { SpeakerFloor } from './speaker-floor.ts';
import type { SpeechToText, TextToSpeech } from './speech-services.ts';

export class VoiceRoom implements RoomVoice {
  #host: VoiceHost;
  #floor: SpeakerFloor;
  #speech: ReplySpeech | null;

  constructor(host: VoiceHost, stt: SpeechToText, tts: TextToSpeech | null, holdMs?: number) {
    this.#host = host;
    this.#floor = new SpeakerFloor(host, stt, holdMs);
    this.#speech = tts ? new ReplySpeech(tts, host) : null;
  }

  get busy(): boolean {
    return this.#floor.busy || (this.#speech?.speaking ?? false);
  }

  bind(member: AgentMember): void {
    const holder = this.#floor.holder;
    if (holder === member) return member.send(hostFrames.speakerBound(member.clientId));
    if (holder) return member.send(hostFrames.error('speaker slot is held'));
    if (this.#speech?.speaking) {
      this.#speech.silence(true);
      this.#host.interruptTurn();
    }
    this.#floor.take(member);
  }

  unbind(member: AgentMember): void {
    this.#floor.release(member);
  }

  audio(member: AgentMember, frame: BinaryFrame): void {
    this.#floor.audio(member, frame);
  }

  left(member: AgentMember): void {
    this.#floor.release(member);
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
    this.#floor.close();
    this.#speech?.silence(true);
  }
}
