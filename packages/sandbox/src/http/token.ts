/**
 * The sandbox's one comparison of a token: the security middleware (`security.ts`), which checks every route's token
 * as its operation's `security` says (a workspace's, the administrator's, the metrics'), asks here. In
 * constant time: the comparison takes as long whatever the given token holds (it depends on the accepted tokens'
 * lengths only), so a token is never learned by timing. No `node:` import: it runs in a browser (MSW) too.
 */

/** Whether `given` equals `expected`, comparing every character of `expected` whatever comes first. */
function sameSecret(given: string, expected: string): boolean {
  let difference = given.length ^ expected.length;
  for (let index = 0; index < expected.length; index++) difference |= (given.charCodeAt(index) || 0) ^ expected.charCodeAt(index);
  return difference === 0;
}

/** Whether `given` is one of the accepted tokens (each compared whole; an absent or empty token is none). */
export function tokenAccepted(given: string | null | undefined, accepted: Iterable<string>): boolean {
  if (given === null || given === undefined || given === "") return false;
  let found = false;
  for (const expected of accepted) found = sameSecret(given, expected) || found;
  return found;
}
