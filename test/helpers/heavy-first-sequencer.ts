/**
 * @module heavy-first-sequencer
 * The order test files start in. Vitest runs the longest first when it knows how long each took
 * (its cache of the last run), and the largest first when it does not, as on a clean clone. A
 * file's size says little of its length here: a short file that starts Redis, nginx and three
 * hosts outlasts a long file of pure functions, and when one comes last, one test process
 * works on it alone while the other has nothing left (a clean clone's run ended on a 23 s
 * file beside an idle process). So the folders whose files only call functions and in-process
 * apps run last, after every file that starts processes, servers or browsers: what is left at
 * the end is many short files, which the two processes share evenly.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Folders of test/ whose files take a few seconds at most (no browser, no spawned service). */
const LIGHT = new Set(['unit', 'client', 'catalog', 'testing', 'delivery', 'formats', 'tls', 'people', 'history', 'workspace']);

function isLight(spec: TestSpecification, root: string): boolean {
  const [top, folder] = path.relative(root, spec.moduleId).split(path.sep);
  return top === 'test' && folder !== undefined && LIGHT.has(folder);
}

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    return [...sorted.filter((spec) => !isLight(spec, root)), ...sorted.filter((spec) => isLight(spec, root))];
  }
}
