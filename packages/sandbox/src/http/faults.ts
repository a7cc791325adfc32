/** The service operations a fault can target. */
export type OperationId = "searchConversations" | "listExternalEventTriggers" | "fireExternalEvent";

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

/** Where the armed faults are kept: in memory (`Faults`), or in PostgreSQL for every replica (`postgres.ts`, whose answers are promises). */
export interface FaultStore {
  /** Arms a fault (defaults: status 504, no delay, once) and returns it as stored. */
  add(fault: FaultRequest): Fault | Promise<Fault>;
  /** Takes one use of the first fault matching the operation, if any. */
  take(operationId: OperationId): Fault | undefined | Promise<Fault | undefined>;
  /** Disarms every fault. */
  clear(): void | Promise<void>;
}

/** A fault with its defaults filled in. */
export function armedFault(fault: FaultRequest): Fault {
  return { ...fault, status: fault.status ?? 504, delayMs: fault.delayMs ?? 0, times: fault.times ?? 1 };
}

/** The armed faults in memory, used in the order they were added. */
export class Faults implements FaultStore {
  #armed: Fault[] = [];

  /** Arms a fault (defaults: no delay, once) and returns it as stored. */
  add(fault: FaultRequest): Fault {
    const armed = armedFault(fault);
    this.#armed.push(armed);
    return { ...armed };
  }

  /** Takes one use of the first fault matching the operation, if any. */
  take(operationId: OperationId): Fault | undefined {
    const fault = this.#armed.find((candidate) => candidate.operationId === undefined || candidate.operationId === operationId);
    if (!fault) return undefined;
    fault.times -= 1;
    if (fault.times === 0) this.#armed = this.#armed.filter((candidate) => candidate !== fault);
    return fault;
  }

  /** Disarms every fault. */
  clear(): void {
    this.#armed = [];
  }
}
