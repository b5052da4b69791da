/**
 * @module figure-series
 * Series on `/metrics` read from a host's figures each time they are scraped, not kept up to
 * date between scrapes: a counter set to a running total (a label with nothing counted is left
 * out), and a gauge set to what is there now.
 */
import { Counter, Gauge, type Registry } from 'prom-client';

type Reader = (set: (labels: Record<string, string>, n: number) => void) => void;

/** A counter set from a figure each time it is read. */
export function counter(registry: Registry, name: string, help: string, labelNames: string[], read: Reader): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      read((labels, n) => {
        if (n > 0) this.inc(labels, n);
      });
    },
  });
}

/** A gauge set by `collect` each time it is read. */
export function gauge(registry: Registry, name: string, help: string, collect: (g: Gauge) => void, labelNames: string[] = []): void {
  new Gauge({ name, help, labelNames, registers: [registry], collect() { collect(this); } });
}
