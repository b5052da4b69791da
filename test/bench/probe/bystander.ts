/**
 * @module bystander
 * The probe's bystander: a small delivery variant (a 20k-triangle mesh simplified, gzip) asked
 * for by a client of its own while 8 clients ask for distinct `max_triangles` of a
 * 400k-triangle mesh. Measures its download time beside them against idle.
 */
import { spawnHost } from '../../helpers/spawn-host.ts';
import { bystanderTimes, variantSpecimens } from '../bystander-variants.ts';
import { buildBenchPlugins, fmt, percentile } from '../host-helpers.ts';
import type { ProbePart } from './part.ts';

const SAMPLES = 20;

async function measure(): Promise<string[]> {
  const host = await spawnHost(['--port', '0', '--plugins', buildBenchPlugins(), '--specimens', variantSpecimens(), '--log-level', 'warn', '--no-viewer']);
  try {
    const { idle, busy, heavyVariants } = await bystanderTimes(host, SAMPLES);
    const row = (v: number[]) => `median ${fmt(percentile(v, 50), 0)} ms, max ${fmt(Math.max(...v), 0)} ms`;
    return [
      `bystander's variant idle: ${row(idle)}; beside the 8: ${row(busy)} (${SAMPLES} each; the 8 received ${heavyVariants} variants meanwhile)`,
      `median ratio ${fmt(percentile(busy, 50) / percentile(idle, 50))} (target <= 3)`,
    ];
  } finally {
    await host.stop('SIGKILL');
  }
}

export const bystanderPart: ProbePart = {
  name: 'bystander',
  title: `a bystander's small variant while 8 clients ask for distinct max_triangles of a 400k-triangle mesh`,
  measure,
};
