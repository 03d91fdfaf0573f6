// The `info` strings of the Cloud Slicing Service Interface: time `h:mm:ss` (hours not padded, may
// exceed 24), length in metres (`3.58meters`, `1.00meter` only for exactly one), weight in grams.

export interface InfoTotals {
  printTimeS: number;
  filamentMm: number;
  filamentG: number;
}

export interface InfoStrings {
  time: string;
  length: string;
  weight: string;
}

export function formatInfo(stats: InfoTotals): InfoStrings {
  const total = Math.max(0, Math.round(stats.printTimeS));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const time = `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  const metres = Math.max(0, stats.filamentMm / 1000).toFixed(2);
  const length = metres === '1.00' ? '1.00meter' : `${metres}meters`;
  const weight = `${Math.max(0, stats.filamentG).toFixed(2)}grams`;
  return { time, length, weight };
}
