/**
 * The nightly-size matrix of the blind servers: the kit's run against each faithful server, then against each
 * deviation alone, printing caught or missed per deviation and the score per server.
 * `pnpm exec node test/blind/score.ts [harbor|lantern] [deviation-id ...] [--seed n] [--examples n]`
 */
import { type ConformanceReport, runConformance } from "../../src/index.ts";
import { blindServers, kitOptionsFor } from "./servers.ts";

const args = process.argv.slice(2);
const numberAfter = (flag: string, fallback: number) => {
  const at = args.indexOf(flag);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const seed = numberAfter("--seed", 1);
const examples = numberAfter("--examples", 50);
const words = args.filter((arg, index) => !arg.startsWith("--") && !args[index - 1]?.startsWith("--"));
const failing = (report: ConformanceReport) => report.checks.filter((check) => check.failed > 0);

for (const server of blindServers) {
  if (words.length > 0 && !words.includes(server.name) && !server.deviations.some((d) => words.includes(d.id))) continue;
  const run = async (deviations: string[]) => {
    const running = await server.start(deviations);
    try {
      const started = Date.now();
      const report = await runConformance({ ...kitOptionsFor(server, running.baseUrl), seed, examples });
      return { report, seconds: (Date.now() - started) / 1000 };
    } finally {
      await running.close();
    }
  };
  const faithful = await run([]);
  console.log(
    `${server.name} faithful: ${faithful.report.passed ? "passed" : "FAILED"} in ${faithful.seconds.toFixed(1)} s, ${faithful.report.requests} requests; findings: ${faithful.report.findings.map((f) => f.name).join(", ")}`,
  );
  for (const check of failing(faithful.report))
    console.log(`  ✗ ${check.name}: ${check.failures[0]?.message} | ${check.failures[0]?.sent} | ${check.failures[0]?.received.slice(0, 300)}`);
  const named = server.deviations.filter((d) => words.includes(d.id));
  const chosen = named.length > 0 ? named : server.deviations;
  let caught = 0;
  for (const deviation of chosen) {
    const { report } = await run([deviation.id]);
    const extra = failing(report).filter((check) => !failing(faithful.report).some((f) => f.name === check.name));
    if (extra.length > 0) caught++;
    console.log(
      `  ${extra.length > 0 ? "caught" : "MISSED"} ${deviation.id}${extra.length > 0 ? ` by ${extra.map((c) => `${c.name}: ${c.failures[0]?.message.slice(0, 140)}`).join(" ; ")}` : ""}`,
    );
  }
  console.log(`${server.name}: ${caught} of ${chosen.length} caught`);
}
