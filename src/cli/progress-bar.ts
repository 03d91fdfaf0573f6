// A one-line progress bar for a terminal: redrawn in place with \r, at most ~10 times a second.
// On a pipe or a file it draws nothing (logs should not fill with carriage returns).

export interface ProgressBar {
  update(fraction: number, stage: string): void;
  /** Erases the line so that the next output starts clean. */
  done(): void;
}

const FRAME_MS = 100;

export function createProgressBar(stream: NodeJS.WriteStream | null, enabled = stream?.isTTY === true): ProgressBar {
  if (!enabled || !stream) return { update() {}, done() {} };
  let lastDraw = 0;
  let lastText = '';
  let drawn = false;
  const draw = (fraction: number, stage: string) => {
    const cols = Math.max(40, stream.columns || 80);
    const pct = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
    const label = stage.length > 24 ? stage.slice(0, 24) : stage;
    const width = Math.min(40, cols - pct.length - label.length - 6);
    const full = Math.round(fraction * width);
    const text = `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${pct} ${label}`;
    if (text === lastText) return;
    // \x1b[K clears what a longer previous line left behind.
    stream.write(`\r${text}\x1b[K`);
    lastText = text;
    drawn = true;
  };
  return {
    update(fraction, stage) {
      const now = Date.now();
      if (now - lastDraw < FRAME_MS && fraction < 1) return;
      lastDraw = now;
      draw(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)), stage);
    },
    done() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}
