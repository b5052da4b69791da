/**
 * @module request-durations
 * The request-duration histogram of /metrics (by method, route and status), kept as plain
 * counters per series. A request resolves its route's series holder once (see metrics.ts) and
 * then counts with two small map lookups and a few additions: no label object, no label hash,
 * nothing allocated once a series exists. Registered in a prom-client registry as a metric
 * of its own; the text it exports is the one prom-client's Histogram writes.
 */

/** One exported line: `<metricName>{labels} value`. */
interface ExportedValue {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** The counts of one (method, route, status) series. */
interface Series {
  readonly labels: { method: string; route: string; status: string };
  /** Observations per bucket (not cumulative); the last slot is past every bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** The series of one route, by method and status. */
export class RouteDurations {
  readonly #route: string;
  readonly #owner: RequestDurations;
  readonly #byMethod = new Map<string, Map<number, Series>>();

  constructor(route: string, owner: RequestDurations) {
    this.#route = route;
    this.#owner = owner;
  }

  /** Counts one request of `method` answered with `status` after `seconds`. */
  observe(method: string, status: number, seconds: number): void {
    let byStatus = this.#byMethod.get(method);
    if (!byStatus) this.#byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) byStatus.set(status, (series = this.#owner.newSeries(method, this.#route, status)));
    const bounds = this.#owner.bounds;
    let slot = 0;
    while (slot < bounds.length && seconds > bounds[slot]!) slot++;
    series.counts[slot]! += 1;
    series.sum += seconds;
    series.count += 1;
  }
}

export class RequestDurations {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly bounds: readonly number[];
  readonly #routes = new Map<string, RouteDurations>();
  readonly #series: Series[] = [];

  constructor(options: { name: string; help: string; buckets: readonly number[] }) {
    this.name = options.name;
    this.help = options.help;
    this.bounds = [...options.buckets].sort((a, b) => a - b);
  }

  /** The series holder of `route` (made once per route). */
  route(route: string): RouteDurations {
    let found = this.#routes.get(route);
    if (!found) this.#routes.set(route, (found = new RouteDurations(route, this)));
    return found;
  }

  /** @internal A new series, kept for export. */
  newSeries(method: string, route: string, status: number): Series {
    const series: Series = { labels: { method, route, status: String(status) }, counts: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
    this.#series.push(series);
    return series;
  }

  /** The metric as prom-client's registry reads it: cumulative buckets, `+Inf`, sum and count per series. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: ExportedValue[] }> {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const series of this.#series) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += series.counts[i]!;
        values.push({ metricName: bucketName, labels: { le, ...series.labels }, value: cumulative });
      });
      values.push({ metricName: bucketName, labels: { le: '+Inf', ...series.labels }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: { ...series.labels }, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: { ...series.labels }, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
