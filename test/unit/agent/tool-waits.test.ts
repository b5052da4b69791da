/**
 * @module tool-waits.test
 * A room's headset calls waiting for their answer, on a fake clock: a call waits 30 s and then
 * fails naming the tool; an executor that leaves fails its calls at once (within the second the
 * rule allows, here in no time at all); only the executor's result counts; a capture is answered
 * by its executor's next screenshot, captures in the order they were made.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOOL_CALL_TIMEOUT_MS, ToolWaits } from '../../../core/agent/tool-waits.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** What `answer` settled to by now: its value, its error's message, or 'waiting'. */
async function stateOf(answer: Promise<unknown>): Promise<unknown> {
  let state: unknown = 'waiting';
  answer.then(
    (value) => (state = value),
    (error: Error) => (state = `failed: ${error.message}`),
  );
  await vi.advanceTimersByTimeAsync(0);
  return state;
}

describe('the headset calls a room waits for', () => {
  it('waits 30 s for the executor, then fails naming the tool', async () => {
    const waits = new ToolWaits();
    const { answer } = waits.start('set_room_scene', 3);
    await vi.advanceTimersByTimeAsync(TOOL_CALL_TIMEOUT_MS - 1);
    expect(await stateOf(answer)).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    expect(await stateOf(answer)).toBe('failed: the headset running set_room_scene did not answer within 30 s');
    expect(waits.size).toBe(0);
  });

  it('fails at once every call of an executor that leaves, and no other', async () => {
    const waits = new ToolWaits();
    const mine = [waits.start('remove_specimen', 1), waits.start('capture_viewport', 1)];
    const other = waits.start('set_room_scene', 2);
    waits.left(1);
    expect(await Promise.all(mine.map(({ answer }) => stateOf(answer)))).toEqual([
      'failed: executing client 1 disconnected before replying to remove_specimen',
      'failed: executing client 1 disconnected before replying to capture_viewport',
    ]);
    expect(await stateOf(other.answer)).toBe('waiting');
    expect(waits.size).toBe(1);
    waits.failAll(new Error('closing'));
    expect(await stateOf(other.answer)).toBe('failed: closing');
  });

  it('takes only the executor’s result, and says why another does not count', async () => {
    const waits = new ToolWaits();
    const { requestId, answer } = waits.start('load_specimen', 5);
    expect(waits.result(6, requestId, { ok: true })).toBe(`request_id '${requestId}' was sent to client 5: only its tool_result counts`);
    expect(waits.result(5, 'nope', { ok: true })).toBe("no tool call waits for request_id 'nope'");
    expect(await stateOf(answer)).toBe('waiting');
    expect(waits.result(5, requestId, { ok: true })).toBeNull();
    expect(await stateOf(answer)).toEqual({ ok: true });
    // Answered once: a second answer finds nothing waiting.
    expect(waits.result(5, requestId, { ok: true })).toBe(`no tool call waits for request_id '${requestId}'`);
  });

  it('answers captures with their executor’s screenshots, in order; a refusal fails one', async () => {
    const waits = new ToolWaits();
    const first = waits.start('capture_viewport', 1);
    const second = waits.start('capture_viewport', 1);
    const refused = waits.start('capture_viewport', 2);
    expect(waits.result(1, first.requestId, { ok: true })).toBeNull();
    expect(await stateOf(first.answer)).toBe('waiting');
    expect(waits.screenshot(3, Buffer.from('nobody asked'))).toBe(false);
    const a = Buffer.from('a');
    const b = Buffer.from('b');
    expect(waits.screenshot(1, a)).toBe(true);
    expect(waits.screenshot(1, b)).toBe(true);
    expect(await stateOf(first.answer)).toBe(a);
    expect(await stateOf(second.answer)).toBe(b);
    expect(waits.result(2, refused.requestId, { error: 'no camera' })).toBeNull();
    expect(await stateOf(refused.answer)).toBe('failed: the headset could not run capture_viewport: no camera');
  });
});
