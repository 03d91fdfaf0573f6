// The last line of defence of the printer file: a number that is NaN or ±Infinity must never be
// written into it (`M73 PNaN`, `;TIME:Infinity`, `G1 XNaN` are commands a printer executes or
// chokes on). It can only come from a bug upstream, so it fails the slice as an internal error
// rather than a user's mistake.

export class NonFiniteOutputError extends Error {
  constructor(what: string, value: number) {
    super(`internal error: the G-code writer was given ${String(value)} for ${what}; nothing was written`);
    this.name = 'NonFiniteOutputError';
  }
}

/** `value` when it is a finite number; else throws NonFiniteOutputError naming `what`. */
export function finite(value: number, what: string): number {
  if (!Number.isFinite(value)) throw new NonFiniteOutputError(what, value);
  return value;
}
