/** The size bound of a fixture, alone: imported by the browser's build (through `fixture.ts`) and by the CLI's size check (`fixture-size.ts`). */

/** The largest fixture, in bytes of JSON: a `--fixture` file or the body of `PUT /_sandbox/fixture` (the sandbox's limit; the service states none). */
export const maxFixtureBytes = 256 * 1024 * 1024;
