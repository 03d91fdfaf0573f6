// Ctrl-C during a slice: the first one aborts it through its AbortSignal (the slicing thread is
// stopped and the command exits 130 without writing anything); a second one ends the process at once.
import { EXIT_INTERRUPTED } from './errors.js';

export interface SigintAbort {
  signal: AbortSignal;
  dispose(): void;
}

export function sigintAbort(): SigintAbort {
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    process.stderr.write('\ninterrupted: stopping the slice\n');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSigint);
    },
  };
}
