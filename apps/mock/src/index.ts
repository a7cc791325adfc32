/** The Prism mock as a library: start it on a free port from tests and benchmarks, stop it after. */
export { defaultMockOptions, type MockOptions } from "./options.ts";
export { bundlePath, PrismExitedError, type RunningMock, startMock, startMockOnFreePort } from "./prism.ts";
