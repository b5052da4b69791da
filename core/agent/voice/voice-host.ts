/**
 * @module voice-host
 * What a room's voice asks of its room: to reach every socket, to stop the running turn (a
 * barge-in), to take a transcribed utterance as a turn, and to report a fault.
 */
import type { AgentMember } from '../agent-member.ts';

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
