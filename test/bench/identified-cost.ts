/**
 * @module identified-cost
 * What it costs a request to say who it is: the same small request (a room's scene, whose
 * room's access is read for every request) sent anonymously and with a user's Bearer token (the
 * token hashed and looked up in the host's user store on each request), at 50 connections, in
 * rounds of the same run. Each round also sends the anonymous request a second time, as a
 * control: how far two runs of the very same request differ here is the noise the identified
 * one is judged against. The three go first in turn. Reports each one's median rate and
 * latencies, and the medians of the rounds' rate ratios to the anonymous run.
 */
import autocannon from 'autocannon';
import { fmt } from './host-helpers.ts';

const ROUNDS = 5;
const SECONDS = 5;
const CONNECTIONS = 50;

const KINDS = ['anonymous', 'identified', 'control'] as const;
type Kind = (typeof KINDS)[number];

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The lines of the comparison on the host at `baseUrl`; `token` is a user's, named `user`. */
export async function identifiedCost(baseUrl: string, token: string, user: string): Promise<string[]> {
  // The token must name its user, or the rounds would measure refusals.
  const me = (await (await fetch(`${baseUrl}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { name?: string };
  if (me.name !== user) throw new Error(`the bench token names ${JSON.stringify(me.name)}, not ${user}`);
  const url = `${baseUrl}/api/rooms/bench-people/scene`;
  const headers: Record<Kind, Record<string, string>> = { anonymous: {}, control: {}, identified: { authorization: `Bearer ${token}` } };
  const shoot = (kind: Kind) => autocannon({ url, connections: CONNECTIONS, duration: SECONDS, pipelining: 1, headers: headers[kind] });
  // One warm-up of each way of asking, not counted.
  await shoot('anonymous');
  await shoot('identified');
  const rounds: Record<Kind, autocannon.Result>[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const round: Partial<Record<Kind, autocannon.Result>> = {};
    for (let k = 0; k < KINDS.length; k++) {
      const kind = KINDS[(k + i) % KINDS.length]!;
      round[kind] = await shoot(kind);
    }
    rounds.push(round as Record<Kind, autocannon.Result>);
  }
  const ratios = (kind: Kind) => rounds.map((r) => r[kind].requests.average / r.anonymous.requests.average);
  const errors = rounds.reduce((n, r) => n + KINDS.reduce((m, kind) => m + r[kind].errors + r[kind].non2xx, 0), 0);
  const said = (kind: Kind): string =>
    `${fmt(median(rounds.map((r) => r[kind].requests.average)), 0)} req/s, p50 ${fmt(median(rounds.map((r) => r[kind].latency.p50)), 1)} ms, ` +
    `p99 ${fmt(median(rounds.map((r) => r[kind].latency.p99)), 1)} ms`;
  const ratio = (kind: Kind): string => `${fmt(median(ratios(kind)))} (rounds: ${ratios(kind).map((r) => fmt(r)).join(', ')})`;
  return [
    `identified vs anonymous requests (GET a room's scene, ${CONNECTIONS} connections, ${SECONDS} s, ${ROUNDS} rounds in turn, medians): ` +
      `anonymous ${said('anonymous')}; with a user's Bearer token ${said('identified')}; req/s ratio identified/anonymous ${ratio('identified')}; ` +
      `the noise: the anonymous request again ${said('control')}, ratio ${ratio('control')}; errors ${errors}`,
  ];
}
