/**
 * A histogram whose label sets are series kept here: observing into one adds to its counts and builds nothing.
 * prom-client's own `observe`, even through a labelled child made once, makes a labels object, checks it and
 * hashes it at every call (about half a microsecond a request). This one is a prom-client `Histogram` (its
 * configuration checked by prom-client, registered in the sandbox's registry) whose values the registry reads at
 * each scrape in prom-client's own shape, so the exposition is the one prom-client writes for the same
 * observations (`test/histogram.test.ts` compares the two).
 */
import { type Aggregator, Histogram, type HistogramConfiguration, type LabelValues, type MetricObjectWithValues, type MetricValueWithName } from "prom-client";

/** One label set's series: where its requests are observed. */
export interface HistogramSeries {
  /** Counts `value` in its bucket, its sum and its count. */
  observe(value: number): void;
}

/** A label set's counts: per bucket (not cumulative; the last past every bound), their sum and their number. */
interface Series {
  readonly labels: LabelValues<string>;
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** One value of a histogram as prom-client hands it to its registry for the text format. */
interface ExportedValue {
  readonly labels: LabelValues<string>;
  readonly sharedLabels: LabelValues<string>;
  readonly value: number;
  readonly metricName: string;
  readonly exemplar?: null;
}

/** A histogram's values, as prom-client's histogram hands them to its registry. */
interface ExportedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: "histogram";
  readonly aggregator: Aggregator;
  readonly values: ExportedValue[];
}

/** A prom-client histogram whose label sets are kept as series (`series`), read by the registry at each scrape. */
export class KeptHistogram<T extends string> extends Histogram<T> {
  readonly #upperBounds: readonly number[];
  /** What the exposition names (prom-client's declarations do not show its own fields). */
  readonly #metric: Omit<ExportedMetric, "values">;
  readonly #labelNames: readonly T[];
  readonly #series: Series[] = [];
  /** Each label set's series, by its label values in `labelNames`' order. */
  readonly #observers = new Map<string, HistogramSeries>();

  constructor(configuration: HistogramConfiguration<T> & { readonly buckets: readonly number[] }) {
    super({ ...configuration, buckets: [...configuration.buckets] });
    this.#upperBounds = [...configuration.buckets];
    this.#metric = { name: configuration.name, help: configuration.help, type: "histogram", aggregator: configuration.aggregator ?? "sum" };
    this.#labelNames = [...(configuration.labelNames ?? [])];
  }

  /** The series of `labels`: made at the first call for these labels, the same one after; keep it. A series is exposed from its first observation on, as prom-client's are. */
  series(labels: LabelValues<T>): HistogramSeries {
    const key = JSON.stringify(this.#labelNames.map((name) => labels[name]));
    let kept = this.#observers.get(key);
    if (kept !== undefined) return kept;
    const series: Series = { labels: { ...labels }, buckets: new Array<number>(this.#upperBounds.length + 1).fill(0), sum: 0, count: 0 };
    this.#series.push(series);
    const upperBounds = this.#upperBounds;
    kept = {
      observe(value) {
        let bucket = 0;
        while (bucket < upperBounds.length && value > upperBounds[bucket]!) bucket++;
        series.buckets[bucket]!++;
        series.sum += value;
        series.count++;
      },
    };
    this.#observers.set(key, kept);
    return kept;
  }

  /** The values as prom-client's histogram gives them to the registry's text format: each series' cumulative buckets, `+Inf`, sum and count. */
  async getForPromString(): Promise<ExportedMetric> {
    const { name } = this.#metric;
    const bucketName = `${name}_bucket`;
    const values: ExportedValue[] = [];
    for (const series of this.#series) {
      if (series.count === 0) continue;
      let cumulative = 0;
      this.#upperBounds.forEach((upperBound, index) => {
        cumulative += series.buckets[index]!;
        values.push({ labels: { le: upperBound }, sharedLabels: series.labels, value: cumulative, metricName: bucketName, exemplar: null });
      });
      values.push(
        { labels: { le: "+Inf" }, sharedLabels: series.labels, value: series.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: series.labels, value: series.count, metricName: `${name}_count` },
      );
    }
    return { ...this.#metric, values };
  }

  /** The same values with each series' labels beside `le`, as prom-client's `get` gives them (the JSON form, cluster aggregation). */
  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<T>>> {
    const metric = await this.getForPromString();
    const values = metric.values.map(({ labels, sharedLabels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } as LabelValues<T> }));
    // prom-client's declarations add a `collect` its own histogram's `get` does not return.
    return { ...metric, values } as unknown as MetricObjectWithValues<MetricValueWithName<T>>;
  }

  /** Every series back to no observation (and so absent from the exposition until its next one). */
  override reset(): void {
    super.reset();
    // prom-client's constructor resets the histogram before this class's fields exist.
    if (!(#series in this)) return;
    for (const series of this.#series) {
      series.buckets.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}
