// How deeply a JSON text nests, found by scanning its brackets (no recursion, so no stack to
// overflow). Legacy bodies deeper than MAX_LEGACY_DEPTH are refused before they are parsed: the
// readers, JSON.stringify and the copy between threads all recurse, and a few thousand levels
// overflowed the stack as a 500 (on the large-body thread even where a small body was accepted).
import { badRequest } from '../../service/errors.js';

/** A legacy body with an inline workspace nests about 8 levels; this leaves ample room. */
export const MAX_LEGACY_DEPTH = 100;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** True when `text` opens more than `limit` objects or arrays inside each other (strings skipped). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Throws the client's 400 (URE000) for a legacy body that nests too deeply. */
export function checkLegacyDepth(text: string): void {
  if (nestsDeeperThan(text, MAX_LEGACY_DEPTH)) {
    throw badRequest(`the request body nests objects or arrays more than ${MAX_LEGACY_DEPTH} levels deep`);
  }
}
