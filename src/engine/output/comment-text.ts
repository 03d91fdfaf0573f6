// Text from outside (model names from file names or workspaces) written into a G-code comment. A
// comment ends at the line break: a name holding one would put whatever follows on a line of its own,
// as a command the printer runs (`a\nM104 S300` heats the nozzle to 300 °C on every layer).
/** Longest name kept in a comment; a longer one is cut and marked with an ellipsis. */
export const MAX_COMMENT_NAME = 120;

// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: anything a reader of the
// file (firmware, host software, a text editor) may take for a line break or a terminal command
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** `text` as one line of printable characters, at most MAX_COMMENT_NAME long. */
export function commentSafe(text: string): string {
  const flat = text.replace(UNSAFE, ' ').trim();
  if (flat.length <= MAX_COMMENT_NAME) return flat;
  // cut between code points, not inside a surrogate pair
  return Array.from(flat).slice(0, MAX_COMMENT_NAME - 1).join('') + '…';
}
