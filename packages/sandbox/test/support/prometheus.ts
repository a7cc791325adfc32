/** Scrapes a sandbox's `/_sandbox/metrics` and reads it with a Prometheus text-format parser (parse-prometheus-text-format, prom2json's shape). */
import parsePrometheusTextFormat from "parse-prometheus-text-format";

/** A metric family as the parser reads it: samples with their labels, and a value (a histogram's `count` and `sum`). */
export interface MetricFamily {
  readonly name: string;
  readonly type: string;
  readonly metrics: readonly {
    readonly labels?: Record<string, string>;
    readonly value?: string;
    readonly buckets?: Record<string, string>;
    readonly count?: string;
    readonly sum?: string;
  }[];
}

/** The families of a scrape's text, by name. */
export function parseMetrics(text: string): Map<string, MetricFamily> {
  const families = parsePrometheusTextFormat(text) as MetricFamily[];
  return new Map(families.map((family) => [family.name, family]));
}

/** The value of the sample of `name` whose labels include `labels` (a histogram's count), or `undefined`. */
export function sampleOf(families: Map<string, MetricFamily>, name: string, labels: Record<string, string> = {}): number | undefined {
  const sample = families.get(name)?.metrics.find((metric) => Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value));
  if (sample === undefined) return undefined;
  return Number(sample.value ?? sample.count);
}
