/** parse-prometheus-text-format ships no declarations: its default export, as `support/prometheus.ts` uses it. */
declare module "parse-prometheus-text-format" {
  const parsePrometheusTextFormat: (text: string) => unknown[];
  export default parsePrometheusTextFormat;
}
