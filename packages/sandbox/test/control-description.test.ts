import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

test("the control API's OpenAPI document passes the workspace's Redocly lint (recommended-strict and the repo's rules)", () => {
  const result = spawnSync(
    fileURLToPath(new URL("../node_modules/.bin/redocly", import.meta.url)),
    ["lint", "sandbox-control@v1", "--config", "../../redocly.yaml", "--format", "json"],
    {
      cwd: packageDir,
      encoding: "utf8",
      env: { ...process.env, REDOCLY_SUPPRESS_NOTIFICATIONS: "true", REDOCLY_TELEMETRY: "off", NO_COLOR: "1" },
    },
  );
  const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number }; problems: { message: string }[] };
  expect(report.problems.map((problem) => problem.message)).toEqual([]);
  expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  expect(result.status).toBe(0);
});
