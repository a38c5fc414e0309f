/**
 * Scrapes a metrics endpoint over real HTTP and parses the text with parse-prometheus-text-format
 * (a parser library, not the code under test), into samples that tests can sum and compare.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

interface ParsedFamily {
  name: string;
  type: string;
  metrics: Array<{ value?: string; labels?: Record<string, string> }>;
}

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface HistogramSample {
  labels: Record<string, string>;
  buckets: Array<{ le: number; count: number }>;
  count: number;
  sum: number;
}

export class Scrape {
  constructor(readonly families: ParsedFamily[]) {}

  family(name: string): ParsedFamily | undefined {
    return this.families.find((f) => f.name === name);
  }

  /** Every sample named `name` (an untyped histogram's _bucket, _sum and _count alternate, so one name may head several families). */
  samples(name: string): Sample[] {
    return this.families.filter((f) => f.name === name).flatMap((f) => f.metrics.map((m) => ({ labels: m.labels ?? {}, value: Number(m.value) })));
  }

  /** A histogram's series per label set, from its `_bucket`, `_sum` and `_count` samples (see `scrape`). */
  histograms(name: string): HistogramSample[] {
    const key = (labels: Record<string, string>) => JSON.stringify(Object.entries(labels).filter(([k]) => k !== 'le').sort());
    const series = new Map<string, HistogramSample>();
    const seriesOf = (labels: Record<string, string>): HistogramSample => {
      const { le: _le, ...rest } = labels;
      const found = series.get(key(labels)) ?? { labels: rest, buckets: [], count: Number.NaN, sum: Number.NaN };
      series.set(key(labels), found);
      return found;
    };
    for (const s of this.samples(`${name}_bucket`)) seriesOf(s.labels).buckets.push({ le: s.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(s.labels.le), count: s.value });
    for (const s of this.samples(`${name}_count`)) seriesOf(s.labels).count = s.value;
    for (const s of this.samples(`${name}_sum`)) seriesOf(s.labels).sum = s.value;
    for (const s of series.values()) s.buckets.sort((a, b) => a.le - b.le);
    return [...series.values()];
  }
}

export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`);
  if (response.status !== 200) throw new Error(`GET ${url}/metrics answered ${response.status}`);
  if (!/^text\/plain; version=0\.0\.4/.test(response.headers.get('content-type') ?? '')) throw new Error(`unexpected content type ${response.headers.get('content-type')}`);
  // parse-prometheus-text-format folds every series of a histogram into one (it drops their labels),
  // so histograms are read as untyped: their _bucket, _sum and _count samples keep their labels.
  const text = (await response.text()).replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped');
  return new Scrape(parsePrometheusTextFormat(text) as ParsedFamily[]);
}

/** Sums `samples` by the value of `key(labels)` (across replicas, or across label values). */
export function sumBy(samples: Sample[], key: (labels: Record<string, string>) => string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const sample of samples) sums.set(key(sample.labels), (sums.get(key(sample.labels)) ?? 0) + sample.value);
  return sums;
}
