/**
 * @module part
 * One part of the probe bench: its lines between two readings of the machine's load average
 * (the machine is shared, so each ratio is measured within one run and printed beside the
 * load it was measured under).
 */
import { loadavg } from 'node:os';

export interface ProbePart {
  /** The name PROBE_ONLY selects it by. */
  name: string;
  /** What it replays, for the heading line. */
  title: string;
  measure(): Promise<string[]>;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Runs `part`, its lines framed by the load average (1, 5, 15 min) at its start and end. */
export async function runPart(part: ProbePart): Promise<string[]> {
  const before = load();
  const started = performance.now();
  process.stderr.write(`probe ${part.name}: starting (load ${before})\n`);
  const lines = await part.measure();
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  return [`(${part.name}) ${part.title}; load average ${before} at start, ${load()} at end (${seconds} s)`, ...lines.map((l) => `    ${l}`)];
}
