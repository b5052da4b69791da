/**
 * The redaction of credentials: URLs keep everything but their password (a lone user name is
 * hidden too), known secrets are hidden wherever they appear, and the log hooks and error
 * handler a host installs pass every line and detail through it.
 */
import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createHostError } from '../../core/errors.ts';
import { installErrorHandlers } from '../../core/http/error-handler.ts';
import { redactingLogHooks } from '../../core/http/log-redaction.ts';
import { redactUrl, Redactor, urlSecrets } from '../../core/redact-credentials.ts';

describe('redactUrl', () => {
  it('hides the password of a URL and keeps the rest', () => {
    expect(redactUrl('redis://:s3cret@10.0.0.5:6379/2')).toBe('redis://:***@10.0.0.5:6379/2');
    expect(redactUrl('rediss://alice:s3cret@cache.example:6380')).toBe('rediss://alice:***@cache.example:6380');
    // An unescaped @ in the password is hidden whole.
    expect(redactUrl('redis://:pa@ss@h:1')).toBe('redis://:***@h:1');
    // A user name alone may be the password.
    expect(redactUrl('redis://s3cret@h:1')).toBe('redis://***@h:1');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });

  it('hides the credentials of every URL in a text, and leaves e-mail addresses alone', () => {
    expect(redactUrl("Redis at redis://:a1@h:1 and the blob store's at redis://:b2@h:2/1; mail ops@example.org"))
      .toBe("Redis at redis://:***@h:1 and the blob store's at redis://:***@h:2/1; mail ops@example.org");
  });
});

describe('Redactor', () => {
  it('hides known secrets anywhere, ignoring empty and very short ones', () => {
    const redactor = new Redactor(['admin-token-1234', null, '', 'ab', ...urlSecrets('redis://:p%40ss-word@h:1')]);
    expect(urlSecrets('redis://:p%40ss-word@h:1')).toEqual(['p%40ss-word', 'p@ss-word']);
    expect(urlSecrets('redis://h:1')).toEqual([]);
    expect(redactor.text('Bearer admin-token-1234 sent; the password p@ss-word; ab stays')).toBe('Bearer *** sent; the password ***; ab stays');
  });

  it('is what every log line passes: messages, errors, { err } objects', () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) });
    const app = Fastify({ logger: { level: 'info', stream, hooks: redactingLogHooks(new Redactor(['tok-5678'])) } });
    app.log.warn('Redis at redis://:pw1@h:1 is not connected');
    app.log.error(new Error('connect redis://:pw2@h:2 failed with tok-5678'));
    app.log.error({ err: new Error('redis://:pw3@h:3') }, 'redis://:pw4@h:4');
    app.log.info('%s and %s', 'redis://:pw5@h:5', 'tok-5678');
    const all = lines.join('');
    expect(all).not.toMatch(/pw\d|tok-5678/);
    for (const n of [1, 2, 3, 4, 5]) expect(all).toContain(`redis://:***@h:${n}`);
  });

  it('never throws nor writes into what it logs: a DOMException, a frozen error', () => {
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) });
    const app = Fastify({ logger: { level: 'info', stream, hooks: redactingLogHooks(new Redactor(['tok-5678'])) } });
    // A fetch's timeout rejects with a DOMException, whose message has a getter and no setter.
    const timeout = new DOMException('no answer from redis://:pw6@h:6 (tok-5678)', 'TimeoutError');
    const frozen = Object.freeze(new Error('redis://:pw7@h:7'));
    expect(() => app.log.warn({ err: timeout }, 'speech to text failed')).not.toThrow();
    expect(() => app.log.error(frozen)).not.toThrow();
    expect(timeout.message).toBe('no answer from redis://:pw6@h:6 (tok-5678)');
    const all = lines.join('');
    expect(all).not.toMatch(/pw\d|tok-5678/);
    expect(JSON.parse(lines[0]!).err).toMatchObject({ message: 'no answer from redis://:***@h:6 (***)' });
    expect(all).toContain('redis://:***@h:7');
  });

  it('is what every error detail passes', async () => {
    const app = Fastify();
    installErrorHandlers(app, new Redactor(['tok-5678']));
    app.get('/boom', async () => {
      throw createHostError('SPC_ERR_NOT_READY', 'redis: Redis at redis://:pw@h:1 is not connected (tok-5678)');
    });
    const res = await app.inject('/boom');
    expect(res.statusCode).toBe(503);
    expect(res.json().detail).toBe('not ready: redis: Redis at redis://:***@h:1 is not connected (***)');
  });
});
