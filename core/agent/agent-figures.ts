/**
 * @module agent-figures
 * What a host's agent sockets have done, counted where it happens and read by `/metrics`: turns
 * by how they ended, tool calls by where they ran (the host, a headset) and outcome, the
 * provider's latency (each step's time to its answer), the tokens it counted both ways, and the
 * bytes of the requests sent to it, by room.
 */

export type TurnOutcome = 'done' | 'interrupted' | 'failed';
export type ToolPlace = 'host' | 'headset';

export class AgentFigures {
  readonly turns: Record<TurnOutcome, number> = { done: 0, interrupted: 0, failed: 0 };
  readonly toolCalls: Record<`${ToolPlace}:${'ok' | 'error'}`, number> = { 'host:ok': 0, 'host:error': 0, 'headset:ok': 0, 'headset:error': 0 };
  /** Provider steps answered, and their seconds added up (a summary's count and sum). */
  providerSteps = 0;
  providerSeconds = 0;
  tokensIn = 0;
  tokensOut = 0;
  /** Bytes of the requests sent to the provider, by room. */
  readonly providerBytes = new Map<string, number>();
  /** Sockets open on this host now. */
  sockets = 0;
  /** Conversations this host holds now. */
  conversations = 0;

  turn(outcome: TurnOutcome): void {
    this.turns[outcome]++;
  }

  tool(place: ToolPlace, ok: boolean): void {
    this.toolCalls[`${place}:${ok ? 'ok' : 'error'}`]++;
  }

  sent(roomId: string, bytes: number): void {
    this.providerBytes.set(roomId, (this.providerBytes.get(roomId) ?? 0) + bytes);
  }

  step(seconds: number, tokensIn: number, tokensOut: number): void {
    this.providerSteps++;
    this.providerSeconds += seconds;
    this.tokensIn += tokensIn;
    this.tokensOut += tokensOut;
  }
}
