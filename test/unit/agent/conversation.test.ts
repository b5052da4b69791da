/**
 * @module conversation.test
 * A room's conversation in memory, its model answered by hand and its clock fake: turns run one
 * after another in the order they came, each sender told its place; an interrupt stops the
 * running turn only, an end drops the waiting ones and the model forgets; a turn past its time
 * is stopped with words naming the option; a provider's refusal ends the turn in its words, any
 * other fault in the host's; and a failed turn leaves in the conversation only what people saw:
 * the question, and what was said of the answer.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AgentFigures, type TurnOutcome } from '../../../core/agent/agent-figures.ts';
import { Conversation } from '../../../core/agent/conversation.ts';
import { ModelRefusal, type ModelMessage } from '../../../core/agent/model/agent-model.ts';
import type { Turn } from '../../../core/agent/turn-runner.ts';
import { handModel, handTools, type HandModel } from '../../helpers/agent-parts.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

interface Ended {
  outcome: TurnOutcome;
  text: string;
  problem: string | null;
}

function conversationOf(model: HandModel, timeoutMs = 120_000) {
  const ended: Ended[] = [];
  const faults: unknown[] = [];
  const frames: object[] = [];
  const conversation = new Conversation(
    {
      roomId: 'lab',
      model,
      tools: handTools({ get_room: { room: 'lab', entry: null } }),
      broadcast: (frame) => void frames.push(frame),
      spoken: () => {},
      figures: new AgentFigures(),
      timeoutMs,
      contextBytes: 1 << 20,
      ended: (outcome, text, problem) => void ended.push({ outcome, text, problem }),
      fault: (error) => void faults.push(error),
    },
    [],
  );
  return { conversation, ended, faults, frames };
}

const turn = (text: string): Turn => ({ text, image: null, author: { identity: null, baseUrl: 'http://127.0.0.1:1' } });
/** The words of a request's messages, in order (tool results as their texts). */
const words = (messages: readonly ModelMessage[]) =>
  messages.map((m) => {
    if (m.role === 'user') return `user: ${m.parts.map((p) => (p.type === 'text' ? p.text : '[image]')).join('')}`;
    return m.role === 'assistant' ? `agent: ${m.text}` : 'tools';
  });
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('a room’s conversation', () => {
  it('runs turns one after another in the order they came, telling each its place', async () => {
    const model = handModel();
    const { conversation, ended } = conversationOf(model);
    expect([conversation.submit(turn('one')), conversation.submit(turn('two')), conversation.submit(turn('three'))]).toEqual([0, 1, 2]);
    expect(conversation.busy).toBe(true);
    (await model.next()).reply('First.');
    const second = await model.next();
    expect(words(second.request.messages)).toEqual(['user: one', 'agent: First.', 'user: two']);
    second.reply('Second.');
    (await model.next()).reply('Third.');
    await settle();
    expect(ended).toEqual([
      { outcome: 'done', text: 'First.', problem: null },
      { outcome: 'done', text: 'Second.', problem: null },
      { outcome: 'done', text: 'Third.', problem: null },
    ]);
    expect(conversation.busy).toBe(false);
  });

  it('stops only the running turn on interrupt; an end drops the waiting ones and forgets', async () => {
    const model = handModel();
    const { conversation, ended } = conversationOf(model);
    conversation.submit(turn('long'));
    conversation.submit(turn('next'));
    await model.next();
    expect(conversation.interrupt()).toBe(true);
    await settle();
    expect(ended).toEqual([{ outcome: 'interrupted', text: '', problem: null }]);
    const next = await model.next();
    expect(words(next.request.messages)).toEqual(['user: long', 'agent: (no answer: the turn was stopped)', 'user: next']);
    conversation.submit(turn('dropped'));
    conversation.end();
    await settle();
    expect(ended.at(-1)).toEqual({ outcome: 'interrupted', text: '', problem: null });
    expect(conversation.interrupt()).toBe(false);
    conversation.submit(turn('fresh'));
    const fresh = await model.next();
    expect(words(fresh.request.messages)).toEqual(['user: fresh']);
    fresh.reply('New.');
    await settle();
    expect(ended.map((e) => e.text)).toEqual(['', '', 'New.']);
  });

  it('stops a turn past its time with words naming the option, then runs the next', async () => {
    const model = handModel();
    const { conversation, ended } = conversationOf(model, 5000);
    conversation.submit(turn('slow'));
    conversation.submit(turn('after'));
    const slow = await model.next();
    slow.request.onText('Partly');
    await vi.advanceTimersByTimeAsync(4999);
    expect(ended).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toEqual([{ outcome: 'failed', text: 'Partly', problem: 'the turn ran past 5 s (--agent-turn-timeout) and was stopped' }]);
    const after = await model.next();
    expect(words(after.request.messages)).toEqual(['user: slow', 'agent: Partly', 'user: after']);
  });

  it('ends a turn in the provider’s words on a refusal, and in the host’s on any other fault', async () => {
    const model = handModel();
    const { conversation, ended, faults } = conversationOf(model);
    conversation.submit(turn('refused'));
    (await model.next()).fail(new ModelRefusal('the chat-completions server answered 429: slow down'));
    await settle();
    conversation.submit(turn('broken'));
    const broken = new TypeError('a bug');
    (await model.next()).fail(broken);
    await settle();
    expect(ended).toEqual([
      { outcome: 'failed', text: '', problem: 'the chat-completions server answered 429: slow down' },
      { outcome: 'failed', text: '', problem: 'the agent failed: internal error' },
    ]);
    expect(faults).toEqual([broken]);
  });

  it('keeps of a failed turn only the question and what was said, not its tool calls', async () => {
    const model = handModel();
    const { conversation, frames } = conversationOf(model);
    conversation.submit(turn('where?'));
    (await model.next()).reply('Looking. ', [{ id: 'c1', name: 'get_room', args: {} }]);
    const step = await model.next();
    expect(words(step.request.messages)).toEqual(['user: where?', 'agent: Looking. ', 'tools']);
    step.fail(new ModelRefusal('the stream broke'));
    await settle();
    conversation.submit(turn('again?'));
    const again = await model.next();
    expect(words(again.request.messages)).toEqual(['user: where?', 'agent: Looking. ', 'user: again?']);
    expect(frames).toContainEqual({ type: 'status', text: 'Using the get_room tool...' });
  });
});
