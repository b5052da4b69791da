/**
 * @module speaker-floor.test
 * The speaker floor and the reply's speech as pure modules over a room that records what it is
 * told (the socket tests drive them over real sockets; this file reaches what those cannot wait
 * for): the floor is freed when its hold runs out whatever was said, a holder that leaves mid
 * utterance still has its words become a turn, a service that cannot transcribe frees the floor
 * with the reason, and a reply cut into sentences is spoken in order and ended once.
 */
import { describe, expect, it } from 'vitest';
import type { AgentMember } from '../../core/agent/agent-member.ts';
import { decodeBinary, type BinaryFrame } from '../../core/agent/binary-frame.ts';
import { SentenceChunks } from '../../core/agent/voice/reply-speech.ts';
import { VoiceRoom } from '../../core/agent/voice/voice-room.ts';
import { SpeechFault } from '../../core/agent/voice/speech-services.ts';
import type { VoiceHost } from '../../core/agent/voice/room-voice.ts';
import { waitFor } from '../helpers/wait-for.ts';

function recordingRoom() {
  const heard: object[] = [];
  const turns: string[] = [];
  const host: VoiceHost = {
    id: 'r',
    broadcast: (frame) => void heard.push(frame),
    broadcastBytes: (data) => {
      const frame = decodeBinary(data) as BinaryFrame;
      heard.push({ seq: frame.header.seq, bytes: frame.payload.length });
    },
    interruptTurn: () => void heard.push({ interrupted: true }),
    turn: (_member, text) => void turns.push(text),
    fault: () => {},
  };
  return { host, heard, turns };
}

function member(clientId: number): AgentMember & { sent: object[] } {
  const sent: object[] = [];
  return {
    clientId,
    peer: { id: `p${clientId}`, name: 'x', kind: 'headset', user: 'anonymous', since: 0 },
    identity: null,
    readOnly: null,
    baseUrl: 'http://x',
    send: (frame) => void sent.push(frame),
    sendBytes: () => {},
    sent,
  };
}

const audio = (seconds: number) => ({ header: { kind: 'audio', rate: 16000 }, payload: Buffer.alloc(seconds * 16000 * 2) });

describe('the speaker floor', () => {
  it('is freed when its hold runs out, whatever was said', async () => {
    const { host, heard, turns } = recordingRoom();
    const voice = new VoiceRoom(host, { transcribe: async () => 'never' }, null, 50);
    const a = member(0);
    voice.bind(a);
    voice.audio(a, audio(1));
    await waitFor(() => (heard.some((f) => (f as { type?: string }).type === 'speaker_released') ? true : undefined), 'the floor freed');
    expect(heard).toEqual([{ type: 'speaker_bound', client_id: 0 }, { type: 'speaker_released' }]);
    expect(a.sent).toEqual([{ type: 'status', text: '(silence)' }]);
    voice.unbind(a);
    expect(turns).toEqual([]);
    expect(voice.busy).toBe(false);
  });

  it('turns the words of a holder that leaves into a turn, and names a transcription that failed', async () => {
    const { host, heard, turns } = recordingRoom();
    let fail = false;
    const refusal = new SpeechFault('speech to text answered 500');
    const voice = new VoiceRoom(host, { transcribe: async () => (fail ? Promise.reject(refusal) : 'left talking') }, null);
    const a = member(0);
    voice.bind(a);
    voice.audio(a, audio(1));
    voice.left(a);
    await waitFor(() => (turns.length === 1 ? true : undefined), 'the turn');
    expect(turns).toEqual(['left talking']);
    fail = true;
    const b = member(1);
    voice.bind(b);
    voice.audio(b, audio(1));
    voice.unbind(b);
    await waitFor(() => (b.sent.length > 0 ? true : undefined), 'the error');
    expect(b.sent).toEqual([{ type: 'error', message: 'speech to text answered 500' }]);
    expect(heard.at(-1)).toEqual({ type: 'speaker_released' });
  });

  it('speaks a reply sentence by sentence, in order, and ends it once', async () => {
    const { host, heard } = recordingRoom();
    const voice = new VoiceRoom(host, { transcribe: async () => '' }, { speak: async (text) => new Int16Array(text.length) }, 1000);
    for (const piece of ['One. Tw', 'o! Three', ' and four']) voice.spoken(piece);
    voice.replyDone();
    await waitFor(() => (heard.some((f) => (f as { type?: string }).type === 'agent_audio_end') ? true : undefined), 'the end');
    expect(heard).toEqual([{ seq: 0, bytes: 8 }, { seq: 1, bytes: 8 }, { seq: 2, bytes: 28 }, { type: 'agent_audio_end', interrupted: false }]);
    expect(voice.busy).toBe(false);
  });

  it('cuts a reply into sentences at their ends, keeping short pieces whole', () => {
    const chunks = new SentenceChunks();
    expect(chunks.feed('Hello there. How')).toEqual(['Hello there.']);
    expect(chunks.feed(' are you?\nFine')).toEqual(['How are you?']);
    expect(chunks.feed('. 3.14 is pi')).toEqual(['Fine.']);
    expect(chunks.flush()).toBe('3.14 is pi');
  });
});
