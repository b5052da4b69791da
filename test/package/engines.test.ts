/**
 * Every package the lock file installs accepts the oldest Node the package.json declares, so
 * `npm install` on that Node prints no engine warning (a dependency wanting a newer Node is
 * pinned to an older release that does not). Optional platform binaries are left out: npm
 * skips one whose engines do not fit, silently. So is a development package that Node never
 * runs, named below with why: its `engines` speaks of its own build, and npm prints one warning
 * for it that changes nothing. Each must stay a development dependency.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } | string[] }>;
};

/** Development packages Node never runs, and why. */
const BROWSER_ONLY: Record<string, string> = {
  // 2.41.2 is the first release that reads OME-Zarr 0.5 (the stores the room's state names);
  // it asks for Node 22 for its own build, and is only bundled by esbuild for a browser page
  // (build/tools/neuroglancer/neuroglancer-bundle.ts).
  neuroglancer: 'the stock Neuroglancer, bundled for the browser tests and `npm run neuroglancer`',
};

describe('engines', () => {
  it('every locked package accepts the oldest Node we declare', () => {
    const oldest = semver.minVersion(manifest.engines.node);
    expect(oldest?.version).toBe('20.20.2');
    const refusing = Object.entries(lock.packages)
      .filter(([where]) => !(where.replace(/^node_modules\//, '') in BROWSER_ONLY))
      .filter(([, entry]) => !entry.optional && entry.engines && !Array.isArray(entry.engines) && entry.engines.node)
      .filter(([, entry]) => !semver.satisfies(oldest!, (entry.engines as { node: string }).node))
      .map(([where, entry]) => `${where}@${entry.version}`);
    expect(refusing).toEqual([]);
  });

  it('leaves out only development packages that Node never runs', () => {
    for (const name of Object.keys(BROWSER_ONLY)) {
      expect(manifest.dependencies[name], `${name} is not a runtime dependency`).toBeUndefined();
      expect(manifest.devDependencies[name], `${name} is a development dependency`).toBeDefined();
    }
  });
});
