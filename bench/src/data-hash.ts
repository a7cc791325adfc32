/**
 * A fingerprint of what a build of the sandbox serves over generated data, to show a change to the generator or
 * the engine left every answer byte for byte as it was: `node src/data-hash.ts [<name>=<path of a built main.js>
 * ...]` starts each build (the workspace's own `dist/main.js` when none is named) with `--conversations 100000`
 * (`CONVERSATIONS`) and `--data <a new file>`, reads every search page (pages of 5,000) in each of the three
 * orders, every page of six filter mixes, every 50th conversation's export, then the same pages again after a
 * reset to another seed, and prints one SHA-256 of the bodies per part and per build. Equal lines: the same
 * answers. Not part of `pnpm bench`: a tool for the change at hand, beside `ready-cpu.ts`.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LaunchedSandbox } from "@bot-conversation/sandbox";
import { namedBuilds, startWithData } from "./sandbox-builds.ts";

const searchPath = "/api/v2/channels/conversations";
const headers = { "x-token": "sandbox-token" };
const conversations = Number(process.env["CONVERSATIONS"] ?? 100_000);
const orders = ["startedOn-desc", "startedOn-asc", "latestMessageOn-desc"] as const;

/** A build started over a new `--data` file, once it printed its ready line. */
const start = async (main: string, data: string): Promise<LaunchedSandbox> => (await startWithData(data, { command: main, conversations })).sandbox;

/** The body of a GET that must answer 200. */
async function body(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { headers });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${new TextDecoder().decode(bytes).slice(0, 300)}`);
  return bytes;
}

/** Every page of a search, hashed into `hash`; the number of items. */
async function hashPages(url: string, query: string, pageSize: number, hash: ReturnType<typeof createHash>): Promise<number> {
  let items = 0;
  for (let page = 0; ; page++) {
    const bytes = await body(`${url}${searchPath}?${query}${query ? "&" : ""}pageSize=${pageSize}&pageIndex=${page}`);
    hash.update(bytes);
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as { items: unknown[]; hasMore: boolean };
    items += parsed.items.length;
    if (!parsed.hasMore) return items;
  }
}

/** Filter mixes from the sandbox's own data, as the sandbox section builds them. */
async function filterQueries(url: string): Promise<string[]> {
  const sample = (
    JSON.parse(new TextDecoder().decode(await body(`${url}${searchPath}?pageSize=1&pageIndex=${Math.min(5000, conversations - 1)}`))) as {
      items: { members: { id: string; role: string }[]; startedOn: string; latestMessageOn: string }[];
    }
  ).items[0]!;
  const bot = sample.members.find((member) => member.role === "Bot")!.id;
  const around = (text: string, days: number) => new Date(Date.parse(text) + days * 86_400_000).toISOString();
  return [
    `agentStageId=${bot}&status=Active`,
    `agentStageId=${bot}&channelId=platform&startFromDate=${around(sample.startedOn, -30)}`,
    `status=Closed&latestMessageFromDate=${around(sample.latestMessageOn, -10)}&latestMessageToDate=${around(sample.latestMessageOn, 10)}`,
    "channelId=messenger_a",
    `agentStageId=${bot}&status=Operator&channelId=directline&startFromDate=${around(sample.startedOn, -60)}&startToDate=${around(sample.startedOn, 10)}`,
    `agentStageId=${bot}`,
  ];
}

/** Each part's SHA-256 over one build. */
async function fingerprint(main: string, scratch: string, name: string): Promise<Record<string, string>> {
  const sandbox = await start(main, join(scratch, `${name}.db`));
  const { url } = sandbox;
  const parts: Record<string, string> = {};
  try {
    const pagesOf = async (label: string) => {
      for (const order of orders) {
        const put = await fetch(`${url}/_sandbox/switches`, {
          method: "PUT",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ order }),
        });
        if (put.status !== 200) throw new Error(`PUT /_sandbox/switches answered ${put.status}`);
        const hash = createHash("sha256");
        const items = await hashPages(url, "", 5_000, hash);
        parts[`${label}, ${order} (${items} items)`] = hash.digest("hex");
      }
    };
    await pagesOf("seeded");
    const filters = createHash("sha256");
    let filtered = 0;
    for (const query of await filterQueries(url)) filtered += await hashPages(url, query, 1_000, filters);
    parts[`six filter mixes (${filtered} items)`] = filters.digest("hex");
    const ids: string[] = [];
    for (let page = 0; page * 5_000 < conversations; page++) {
      const { items } = JSON.parse(new TextDecoder().decode(await body(`${url}${searchPath}?pageSize=5000&pageIndex=${page}`))) as { items: { id: string }[] };
      ids.push(...items.filter((_, at) => at % 50 === 0).map((item) => item.id));
    }
    const exports = createHash("sha256");
    for (const id of ids) exports.update(await body(`${url}/_sandbox/conversations/${encodeURIComponent(id)}/export`));
    parts[`exports of every 50th (${ids.length})`] = exports.digest("hex");
    const reset = await fetch(`${url}/_sandbox/reset`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ seed: "another", conversations }),
    });
    if (reset.status !== 200) throw new Error(`reset answered ${reset.status}`);
    await pagesOf("after a reset to seed another");
  } finally {
    await sandbox.stop();
  }
  return parts;
}

if (import.meta.main) {
  const builds = namedBuilds(process.argv.slice(2));
  const scratch = mkdtempSync(join(tmpdir(), "bench-data-hash-"));
  try {
    const results: Record<string, string>[] = [];
    for (const build of builds) results.push(await fingerprint(build.main, scratch, build.name));
    for (const part of Object.keys(results[0]!)) {
      console.log(part);
      for (const [index, build] of builds.entries()) console.log(`  ${results[index]![part] ?? "(missing)"}  ${build.name}`);
    }
    const same = results.every((result) => JSON.stringify(result) === JSON.stringify(results[0]));
    console.log(same ? "every build answered the same bytes" : "the builds answered differently");
    process.exitCode = same ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
