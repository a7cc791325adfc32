/**
 * The kept histogram (`observe/histogram.ts`) writes exactly the exposition prom-client's own histogram writes for
 * the same observations: text and OpenMetrics formats, the JSON form, several label sets, values on and past the
 * bounds, labels that need escaping, and a reset.
 */
import { Histogram, Registry, type RegistryContentType } from "prom-client";
import { describe, expect, test } from "vitest";
import { KeptHistogram } from "../src/observe/histogram.ts";

type Label = "operation" | "workspace";
const configuration = {
  name: "sandbox_request_duration_seconds",
  help: "Time from a request's arrival to its answer's headers, by operation and workspace.",
  labelNames: ["operation", "workspace"] as Label[],
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
};

/** Label sets, one of them with characters the text format escapes. */
const labelSets: Record<Label, string>[] = [
  { operation: "searchConversations", workspace: "default" },
  { operation: "fireExternalEvent", workspace: "default" },
  { operation: "searchConversations", workspace: 'team "a"\\b\nc' },
];
/** Values below, on and past every bound (on a bound counts in that bound's bucket), interleaved over the label sets. */
const values = [0, 0.0001, 0.0005, 0.00050001, 0.001, 0.0042, 0.01, 0.3, 1, 2.5, 9.99, 10, 10.5, 120, 0.000123456789, 1e-9];

/** The same observations into prom-client's histogram (through labelled children made once) and into the kept one. */
function observedBoth(contentType: RegistryContentType) {
  const theirs = new Registry<RegistryContentType>();
  const ours = new Registry<RegistryContentType>();
  theirs.setContentType(contentType);
  ours.setContentType(contentType);
  const reference = new Histogram({ ...configuration, registers: [theirs] });
  const kept = new KeptHistogram({ ...configuration, registers: [ours] });
  const children = labelSets.map((labels) => reference.labels(labels));
  // The same label set asked for twice is the same series.
  const series = labelSets.map((labels) => kept.series({ ...labels }));
  const observe = (times: number) => {
    for (let round = 0; round < times; round++)
      values.forEach((value, index) => {
        const which = (index + round) % (labelSets.length + 1);
        // Every fourth observation goes to the first label set through a series asked for again.
        const to = which === labelSets.length ? 0 : which;
        children[to]!.observe(value);
        (which === labelSets.length ? kept.series(labelSets[0]!) : series[to]!).observe(value);
      });
  };
  return { theirs, ours, reference, kept, observe };
}

describe("the kept histogram's exposition is prom-client's", () => {
  test.each([
    ["the text format", Registry.PROMETHEUS_CONTENT_TYPE],
    ["OpenMetrics", Registry.OPENMETRICS_CONTENT_TYPE],
  ] as const)("%s: no observation, then many over several label sets, then after a reset", async (_name, contentType) => {
    const { theirs, ours, reference, kept, observe } = observedBoth(contentType);
    expect(await ours.metrics()).toBe(await theirs.metrics());

    observe(7);
    const exposition = await ours.metrics();
    expect(exposition).toBe(await theirs.metrics());
    // Every label set is there, its count whole.
    expect(exposition).toContain('sandbox_request_duration_seconds_count{operation="searchConversations",workspace="team \\"a\\"\\\\b\\nc"}');
    expect(exposition).toContain('le="+Inf",operation="fireExternalEvent",workspace="default"');

    reference.reset();
    kept.reset();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    observe(1);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  test("the JSON form (what cluster aggregation reads) holds the same values", async () => {
    const { theirs, ours, observe } = observedBoth(Registry.PROMETHEUS_CONTENT_TYPE);
    observe(3);
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });
});
