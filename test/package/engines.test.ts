/**
 * Every package the lock file installs accepts the oldest Node the package.json declares, so
 * `npm install` on that Node prints no engine warning (a dependency wanting a newer Node is
 * pinned to an older release that does not). Optional platform binaries are left out: npm
 * skips one whose engines do not fit, silently.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>;
};

describe('engines', () => {
  it('every locked package accepts the oldest Node we declare', () => {
    const oldest = semver.minVersion(manifest.engines.node);
    expect(oldest?.version).toBe('20.20.2');
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => !entry.optional && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !semver.satisfies(oldest!, (entry.engines as { node: string }).node))
      .map(([where, entry]) => `${where}@${entry.version}`);
    expect(refusing).toEqual([]);
  });
});
