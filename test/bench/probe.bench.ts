/**
 * @module probe.bench
 * `npm run bench probe`: a reliability probe's attacks replayed against real host processes,
 * each printed as a ratio against a control measured in the same run (the machine is shared:
 * each part prints the load average at its start and end).
 * (blobs) 500 requests for unknown blob ids on an S3-backed host: the catalog's p99 against idle;
 * (followers) 300 stalled room streams: the room's change rate against none;
 * (outage) a 13 s S3 outage while jobs start continuously: jobs ended `error`, time to stored;
 * (python) a short Python call beside 1 s ones in other rooms: its p99 against alone;
 * (bystander) a small variant beside 8 clients' large ones: its time against idle;
 * (children) a cancelled Python job's forked children: how soon they are gone;
 * (progress) 300,000 progress reports from a Python job: `/healthz` against idle;
 * (snapshots, segments, readers, imports) what people make kept, deliveries bounded by their
 * output, annotations read and imported off the event loop (probe/kept-work.ts).
 * PROBE_ONLY=blobs,followers,...,imports runs the named parts only.
 */
import { blobsPart } from './probe/blobs.ts';
import { bystanderPart } from './probe/bystander.ts';
import { followersPart } from './probe/followers.ts';
import { outagePart } from './probe/outage.ts';
import { runPart } from './probe/part.ts';
import { pythonPart } from './probe/python.ts';
import { childrenPart, progressPart } from './probe/python-faults.ts';
import { importsPart, readersPart, segmentsPart, snapshotsPart } from './probe/kept-work.ts';

const PARTS = [
  blobsPart,
  followersPart,
  outagePart,
  pythonPart,
  bystanderPart,
  childrenPart,
  progressPart,
  snapshotsPart,
  segmentsPart,
  readersPart,
  importsPart,
];

export async function run(): Promise<{ name: string; lines: string[] }> {
  const only = process.env.PROBE_ONLY?.split(',').map((name) => name.trim());
  const unknown = only?.filter((name) => !PARTS.some((part) => part.name === name)) ?? [];
  if (unknown.length) throw new Error(`PROBE_ONLY names no part ${unknown.join(', ')}: the parts are ${PARTS.map((p) => p.name).join(', ')}`);
  const lines: string[] = [];
  for (const part of PARTS) if (!only || only.includes(part.name)) lines.push(...(await runPart(part)));
  return { name: 'probe: attacks replayed, each against a control in the same run', lines };
}
