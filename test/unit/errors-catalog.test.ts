import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../core/errors.ts';

describe('error catalog', () => {
  it('gives every code a 4xx/5xx status, an SPC_ERR_ prefix, and a row in core/ERRORS.md', () => {
    const doc = readFileSync(new URL('../../core/ERRORS.md', import.meta.url), 'utf8');
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(code).toMatch(/^SPC_ERR_[A-Z_]+$/);
      expect(entry.status).toBeGreaterThanOrEqual(400);
      expect(entry.status).toBeLessThan(600);
      expect(doc, `${code} documented`).toMatch(new RegExp(`\\| \`${code}\` \\| ${entry.status} \\|`));
    }
  });
});
