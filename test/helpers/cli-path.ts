/**
 * @module cli-path
 * The `vitrine` command the tests run. By default it is the checkout's launcher over the
 * TypeScript sources (core/cli/vitrine.mjs), always current with the code being edited, so a
 * single test file run after an edit tests the edit. `npm test` compiles first and sets
 * VITRINE_TEST_CLI=compiled: the suite then runs the compiled command, the one `npm start` and
 * the installed package run, and each spawned host, worker and thread starts without the
 * TypeScript loader (about a third less CPU per start, which the suite pays hundreds of times).
 * Tests that are about the checkout's own launcher name SOURCES_CLI.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const SOURCES_CLI = join(REPO, 'core/cli/vitrine.mjs');
export const COMPILED_CLI = join(REPO, 'build/dist/core/cli/bin.js');

function chosenCli(): string {
  const wanted = process.env.VITRINE_TEST_CLI ?? 'sources';
  if (wanted === 'sources') return SOURCES_CLI;
  if (wanted !== 'compiled') throw new Error(`VITRINE_TEST_CLI must be sources or compiled, not ${wanted}`);
  if (!existsSync(COMPILED_CLI)) throw new Error(`VITRINE_TEST_CLI=compiled but ${COMPILED_CLI} is missing: run npm run compile first`);
  return COMPILED_CLI;
}

/** The command tests spawn (`node CLI ...`). */
export const CLI = chosenCli();
