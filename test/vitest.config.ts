import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['node_modules/**', 'build/out/**', 'test/fixtures/**'],
    // Backstops for a test or hook that hangs, not estimates of how long one takes: each wait in
    // a test ends on its event or state (helpers/wait-for.ts), and a test of several processes
    // takes minutes on a 2-core machine under load that takes seconds on a quiet one.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // One process runs many files, in turn (no fresh process and module graph per file: that
    // start cost the suite paid 224 times). What a file starts or changes of the process is
    // undone when it ends (helpers/file-end-setup.ts). Two such processes, one per core: a third
    // beside two files that each start hosts, browsers and servers overloads two cores (a clean
    // clone's run went from 14:27 of tests with two to 15:20 with three).
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    setupFiles: ['test/helpers/file-end-setup.ts'],
  },
});
