/**
 * @module room-voice
 * What a room's voice is to the room: the speaker floor (`bind`, `unbind`, audio frames) and the
 * agent's speech (its reply's text in, `tts` frames and `agent_audio_end` out). The room hands
 * it what it hears; voice-room.ts holds the floor, reply-speech.ts speaks. And what the voice asks
 * of its room (`VoiceHost`): to reach every socket, to stop the running turn (a barge-in), to
 * take a transcribed utterance as a turn, and to report a fault.
 */
import type { AgentMember } from '../agent-member.ts';
import type { BinaryFrame } from '../binary-frame.ts';

export interface RoomVoice {
  /** Whether the floor is held or the agent is speaking (the room is kept in memory meanwhile). */
  readonly busy: boolean;
  bind(member: AgentMember): void;
  unbind(member: AgentMember): void;
  audio(member: AgentMember, frame: BinaryFrame): void;
  /** A socket left: its floor is let go (an utterance long enough still becomes a turn). */
  left(member: AgentMember): void;
  /** A piece of the agent's reply, to be spoken. */
  spoken(delta: string): void;
  /** The reply is complete: what is left of it is spoken, then `agent_audio_end`. */
  replyDone(): void;
  /** Stops the agent's speech now (an interrupt, a barge-in). */
  silence(interrupted: boolean): void;
  close(): void;
}

export interface VoiceHost {
  readonly id: string;
  broadcast(frame: object): void;
  broadcastBytes(data: Buffer): void;
  /** Stops the turn the agent is running (its speech already silenced). */
  interruptTurn(): void;
  /** What `member` said, as a turn. */
  turn(member: AgentMember, text: string): void;
  fault(message: string, error: unknown): void;
}
