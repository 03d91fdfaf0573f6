// Dates as the interface writes them: ISO 8601 with 7 fractional digits and `Z`
// ("2020-12-17T10:41:34.7919292Z", .NET's round-trip format); an unset date is the minimum date
// without a zone ("0001-01-01T00:00:00").

export const UNSET_DATE = '0001-01-01T00:00:00';

let lastTicks = 0n;

/** Now with 100 ns resolution: JS clocks give ms, the sub-ms digits come from the monotonic clock. */
export function nowIso7(): string {
  const ms = Date.now();
  const subMsTicks = BigInt(Math.floor((performance.now() % 1) * 10_000));
  let ticks = BigInt(ms) * 10_000n + subMsTicks;
  // strictly increasing, so two tasks queued in the same instant still sort by queue date
  if (ticks <= lastTicks) ticks = lastTicks + 1n;
  lastTicks = ticks;
  return ticksToIso7(ticks);
}

/** 100 ns ticks since the Unix epoch → ISO 8601 with 7 fractional digits. */
export function ticksToIso7(ticks: bigint): string {
  const ms = Number(ticks / 10_000n);
  const frac = (ticks % 10_000_000n).toString().padStart(7, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
}

/** epoch ms of an ISO date written by nowIso7 (for ages and durations). */
export function iso7ToMs(iso: string): number {
  return Date.parse(iso);
}
