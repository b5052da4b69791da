/**
 * @module file-end-setup
 * A vitest setup file, run for every test file. The suite reuses one process for many files, so
 * what one file changes of the process must not reach the next: after the file's own afterAll
 * hooks (after hooks run last-registered first, and these are registered before the file's), it
 * stops what the file's helpers started and did not stop (see file-end.ts), and puts back the
 * environment variables the file set (a host spawned by a later file inherits them).
 */
import { afterAll } from 'vitest';
import { runFileEnd } from './file-end.ts';

// A backstop under every helper's own choice: a host a test starts without a data folder keeps
// nothing, rather than writing to the user's (spawn-host.ts gives each host a folder of its own).
process.env.VITRINE_DATA_DIR ??= 'none';
const environment = { ...process.env };

afterAll(async () => {
  await runFileEnd();
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  Object.assign(process.env, environment);
});
