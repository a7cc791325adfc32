/** The faults a sandbox can arm (the control API's `Fault` schema) and the armed faults in memory. */
import type { operations } from "@bot-conversation/types";

/** The service operations a fault (or a latency) can target: the description's `operationId`s. */
export type OperationId = keyof operations;

/** A fault armed through `POST /_sandbox/faults` (the control API's `Fault` schema). */
export interface Fault {
  /** The operation it affects; every operation when omitted. */
  readonly operationId?: OperationId;
  /** Status to answer with; below 300 the request is only delayed. */
  readonly status: number;
  /** Seconds for a `Retry-After` header. */
  readonly retryAfter?: number;
  /** Milliseconds to wait before answering. */
  readonly delayMs: number;
  /** How many more requests it affects. */
  times: number;
  /** `true`: the request is never answered (the client's time-out ends it). */
  readonly timeout?: boolean;
}

/** What a fault is armed with: the `Fault` schema, with defaults for all but the operation. */
export type FaultRequest = Omit<Fault, "delayMs" | "times" | "status"> & { status?: number; delayMs?: number; times?: number };

/**
 * Where a workspace's armed faults are kept: in memory (`MemoryFaults`, also the `--data` file's), or in
 * PostgreSQL for every replica (`PostgresFaults`). One asynchronous interface: the app awaits each answer once.
 */
export interface FaultStore {
  /** Arms a fault (defaults: status 504, no delay, once) and resolves to it as stored. */
  add(fault: FaultRequest): Promise<Fault>;
  /** Takes one use of the first fault matching the operation, if any. */
  take(operationId: OperationId): Promise<Fault | undefined>;
  /** Disarms every fault. */
  clear(): Promise<void>;
}

/** A fault with its defaults filled in. */
export function armedFault(fault: FaultRequest): Fault {
  return { ...fault, status: fault.status ?? 504, delayMs: fault.delayMs ?? 0, times: fault.times ?? 1 };
}

/** The armed faults in memory, used in the order they were added. */
export class MemoryFaults implements FaultStore {
  #armed: Fault[] = [];

  async add(fault: FaultRequest): Promise<Fault> {
    const armed = armedFault(fault);
    this.#armed.push(armed);
    return { ...armed };
  }

  /** Most requests meet no armed fault: answered with a promise already settled, at no other cost. */
  take(operationId: OperationId): Promise<Fault | undefined> {
    if (this.#armed.length === 0) return noFault;
    const fault = this.#armed.find((candidate) => candidate.operationId === undefined || candidate.operationId === operationId);
    if (!fault) return noFault;
    fault.times -= 1;
    if (fault.times === 0) this.#armed = this.#armed.filter((candidate) => candidate !== fault);
    return Promise.resolve(fault);
  }

  async clear(): Promise<void> {
    this.#armed = [];
  }
}

/** The answer of a store with no fault to take. */
export const noFault: Promise<Fault | undefined> = Promise.resolve(undefined);
