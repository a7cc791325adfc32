/**
 * The reference site's weight: what one first visit transfers and when the page is usable under
 * emulated slow 4G with a 4x slower CPU, served as the repo's server served it before (no
 * compression: the browser is told to accept none) and as it serves it now (precompressed).
 */

import { distDirectory } from "@bot-conversation/docs/paths";
import { createStaticServer, listen } from "@bot-conversation/docs/server";
import { launchChromium } from "@bot-conversation/test-support/browser";
import { formatNumber, markdownTable, type Section } from "./report.ts";

/** Lighthouse's "Slow 4G": 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up. */
const slow4g = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const cpuSlowdown = 4;
const runsPerMode = 3;

/** One throttled first visit: bytes on the wire and ms until the load event (the viewer has run and hydrated the page). */
async function visit(url: string, compressed: boolean): Promise<{ bytes: number; ms: number }> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const devtools = await page.context().newCDPSession(page);
    await devtools.send("Network.enable");
    await devtools.send("Network.setCacheDisabled", { cacheDisabled: true });
    await devtools.send("Network.emulateNetworkConditions", slow4g);
    await devtools.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
    if (!compressed) await devtools.send("Network.setExtraHTTPHeaders", { headers: { "Accept-Encoding": "identity" } });
    let bytes = 0;
    devtools.on("Network.loadingFinished", (event) => {
      bytes += event.encodedDataLength;
    });
    const started = performance.now();
    await page.goto(`${url}/`, { waitUntil: "load", timeout: 120_000 });
    const ms = performance.now() - started;
    // Usable: the sidebar's link to a section answers a click (a hash route of the viewer, relative to any base path).
    await page.locator('a[href="#/section/errors"]').first().click();
    await page.waitForURL(/#\/section\/errors$/);
    return { bytes, ms };
  } finally {
    await browser.close();
  }
}

/** The median of some numbers. */
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Loads the built site uncompressed and compressed, alternating, `runsPerMode` times each. */
export async function docsWeight(): Promise<Section> {
  const server = createStaticServer(distDirectory);
  const url = await listen(server, "127.0.0.1", 0);
  const results = { before: [] as { bytes: number; ms: number }[], after: [] as { bytes: number; ms: number }[] };
  try {
    for (let run = 0; run < runsPerMode; run++) {
      results.before.push(await visit(url, false));
      results.after.push(await visit(url, true));
    }
  } finally {
    server.close();
    server.closeAllConnections();
  }
  const row = (label: string, runs: { bytes: number; ms: number }[]): string[] => [
    label,
    `${formatNumber(median(runs.map((run) => run.bytes)) / 1024, 0)} kB`,
    `${formatNumber(median(runs.map((run) => run.ms)) / 1000, 1)} s`,
  ];
  const beforeMs = median(results.before.map((run) => run.ms));
  const afterMs = median(results.after.map((run) => run.ms));
  return {
    title: "API reference site: first visit",
    method: `Chromium loads the built site from the repo's server under emulated slow 4G (150 ms, 1.6 Mbit/s) with the CPU ${cpuSlowdown}x slower, cache off; bytes on the wire and time to the load event (the viewer has hydrated; a sidebar click is checked after). "Before" tells the server to compress nothing (Accept-Encoding: identity), as the server used to send; median of ${runsPerMode} alternating runs each.`,
    table: markdownTable(["Served", "Transferred", "Load event"], [row("before: uncompressed", results.before), row("now: precompressed", results.after)]),
    budgets: [
      {
        name: "the first visit transfers under a third of the uncompressed bytes",
        ok: median(results.after.map((run) => run.bytes)) * 3 < median(results.before.map((run) => run.bytes)),
        detail: `${formatNumber(median(results.after.map((run) => run.bytes)) / 1024, 0)} kB vs ${formatNumber(median(results.before.map((run) => run.bytes)) / 1024, 0)} kB`,
      },
      {
        name: "the page is usable sooner on slow 4G",
        ok: afterMs < beforeMs,
        detail: `${formatNumber(afterMs / 1000, 1)} s vs ${formatNumber(beforeMs / 1000, 1)} s`,
      },
    ],
  };
}
