// Ctrl-C during a slice: the first one aborts it through its AbortSignal (the slicing thread is
// stopped and the command exits 130 without writing anything); a second one ends the process at once.
import { EXIT_INTERRUPTED } from './errors.js';

export interface SigintAbort {
  signal: AbortSignal;
  dispose(): void;
}

/** How long a stop may take before the process ends anyway (an input that never arrives: a FIFO no one writes). */
const STOP_WITHIN_MS = 3000;

export function sigintAbort(): SigintAbort {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) return endNow();
    // a new line only after a progress bar (a terminal's), which leaves the cursor at its end
    process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}interrupted: stopping the slice\n`);
    controller.abort();
    setTimeout(endNow, STOP_WITHIN_MS).unref();
  };
  /**
   * Ends the process as Ctrl-C does by default (exit status 130), whatever it is waiting on:
   * process.exit() waited for a thread stuck opening a FIFO no one writes to, for ever.
   */
  const endNow = () => {
    process.off('SIGINT', onSigint);
    process.kill(process.pid, 'SIGINT');
    // should the signal be caught after all (another listener), the exit code still says it
    setTimeout(() => process.exit(EXIT_INTERRUPTED), 100).unref();
  };
  process.on('SIGINT', onSigint);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSigint);
    },
  };
}
