/**
 * @module busy-stretches
 * The stretches a host's main thread was busy without a break, read from a V8 CPU profile
 * (`node --cpu-prof`): samples are walked in time order and split on `(idle)` ones, and each
 * stretch longer than a bound is listed with the functions that took most of it (self time).
 * What the event loop held for that long, every other request waited for.
 * `node --import tsx test/bench/busy-stretches.ts FILE.cpuprofile [MS]` prints them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  /** Microseconds of the monotonic clock (process.hrtime's) at the first sample. */
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface BusyStretch {
  /** Milliseconds from the window's start (else the profile's). */
  at: number;
  ms: number;
  /** The functions that took most of the stretch, with their milliseconds, largest first. */
  top: { name: string; ms: number }[];
}

const nameOf = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split('/').slice(-2).join('/');
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
};

/** A stretch of the monotonic clock, in milliseconds (`performance.now() + performance.timeOrigin` is not it: use {@link monotonicMs}). */
export interface Window {
  from: number;
  to: number;
}

/** The monotonic clock V8 stamps its profiles with, in milliseconds. */
export const monotonicMs = (): number => Number(process.hrtime.bigint() / 1000n) / 1000;

/** The busy stretches of `profile` longer than `overMs` (begun within `window` when given), in time order. */
export function busyStretches(profile: CpuProfile, overMs = 40, window?: Window, topN = 4): BusyStretch[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const stretches: BusyStretch[] = [];
  const origin = window?.from ?? profile.startTime / 1000;
  let now = profile.startTime / 1000 - origin;
  const end = window ? window.to - origin : Infinity;
  let open: { at: number; ms: number; self: Map<string, number> } | null = null;
  const close = () => {
    if (open && open.ms > overMs && open.at >= 0 && open.at <= end) {
      const top = [...open.self].sort((a, b) => b[1] - a[1]).slice(0, topN).map(([name, ms]) => ({ name, ms }));
      stretches.push({ at: open.at, ms: open.ms, top });
    }
    open = null;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i]!)!;
    now += (profile.timeDeltas[i] ?? 0) / 1000;
    if (node.callFrame.functionName === '(idle)') {
      close();
      continue;
    }
    open ??= { at: now, ms: 0, self: new Map() };
    open.ms += ms;
    const name = nameOf(node);
    open.self.set(name, (open.self.get(name) ?? 0) + ms);
  }
  close();
  return stretches;
}

/** One line per stretch: when, how long, and what took it. */
export function describeStretches(stretches: readonly BusyStretch[]): string[] {
  return stretches.map(
    (s) => `${(s.at / 1000).toFixed(2)} s: ${s.ms.toFixed(0)} ms busy (${s.top.map((t) => `${t.name} ${t.ms.toFixed(0)}`).join(', ')})`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, over] = process.argv.slice(2);
  if (!file) throw new Error('usage: busy-stretches.ts FILE.cpuprofile [MS]');
  const stretches = busyStretches(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, Number(over ?? 40));
  for (const line of describeStretches(stretches)) process.stdout.write(`${line}\n`);
}
