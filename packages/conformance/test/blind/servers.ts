/** The blind servers as the kit's tests see them: how to start each, its deviations, and the kit options a user of it would give. */
import type { ConformanceOptions } from "../../src/index.ts";
import { harborBots, harborToken, startHarbor } from "./harbor.ts";
import { lanternBots, lanternToken, startLantern } from "./lantern.ts";
import { type Deviation, harborDeviations, lanternDeviations } from "./manifest.ts";

/** One blind server. */
export interface BlindServer {
  name: string;
  /** Its source file. */
  source: URL;
  deviations: Deviation[];
  start(deviations: readonly string[]): Promise<{ baseUrl: string; close(): Promise<void> }>;
  token: string;
  agentStageId: string;
  conversationId: string;
  exportPath: string;
}

export const blindServers: BlindServer[] = [
  {
    name: "harbor",
    source: new URL("./harbor.ts", import.meta.url),
    deviations: harborDeviations,
    start: (deviations) => startHarbor({ deviations }),
    token: harborToken,
    agentStageId: harborBots[0],
    conversationId: "harbor-004",
    exportPath: "/export/conversations/{conversationId}",
  },
  {
    name: "lantern",
    source: new URL("./lantern.ts", import.meta.url),
    deviations: lanternDeviations,
    start: (deviations) => startLantern({ deviations }),
    token: lanternToken,
    agentStageId: lanternBots[0],
    conversationId: "c0002",
    exportPath: "/export/{conversationId}",
  },
];

/** The kit's default run as a user of the server would start it: its bot, firing into one of its conversations, its export. */
export const kitOptionsFor = (server: BlindServer, baseUrl: string): ConformanceOptions => ({
  baseUrl,
  token: server.token,
  rate: 0,
  allowFire: true,
  agentStageId: server.agentStageId,
  conversationId: server.conversationId,
  exportPath: server.exportPath,
});
