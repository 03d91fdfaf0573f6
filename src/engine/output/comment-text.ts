// Text from outside (model names from file names or workspaces) written into a G-code comment. A
// comment ends at the line break: a name holding one would put whatever follows on a line of its own,
// as a command the printer runs (`a\nM104 S300` heats the nozzle to 300 °C on every layer).
/** Longest name kept in a comment; a longer one is cut and marked with an ellipsis. */
export const MAX_COMMENT_NAME = 120;

// What a one-line name must not hold (here, and in file and model names the service takes): C0 and C1
// controls and DEL; the Unicode line and paragraph separators, a line break to many readers (host
// software, log viewers, text editors); the bidirectional embeddings, overrides and isolates, which
// make a name display as another ('cube\u202Eltsexe.' shows as 'cubeexe.stl').
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';
/** Matches a character a one-line name must not hold. */
export const NAME_CONTROL = new RegExp(`[${CONTROLS}]`);
const UNSAFE = new RegExp(`[${CONTROLS}]+`, 'g');

/** `text` as one line of printable characters, at most MAX_COMMENT_NAME long. */
export function commentSafe(text: string): string {
  const flat = text.replace(UNSAFE, ' ').trim();
  if (flat.length <= MAX_COMMENT_NAME) return flat;
  // cut between code points, not inside a surrogate pair
  return Array.from(flat).slice(0, MAX_COMMENT_NAME - 1).join('') + '…';
}
