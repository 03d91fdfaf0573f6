// Ctrl-C during a slice: the first one aborts the slice through its AbortSignal (the command then
// exits 130 without writing anything); a second one, or an engine that does not stop within a few
// seconds, ends the process at once with 130.
import { EXIT_INTERRUPTED } from './errors.js';

const GRACE_MS = 3000;

export interface SigintAbort {
  signal: AbortSignal;
  dispose(): void;
}

export function sigintAbort(): SigintAbort {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    process.stderr.write('\ninterrupted: stopping the slice\n');
    controller.abort();
    timer = setTimeout(() => process.exit(EXIT_INTERRUPTED), GRACE_MS);
    timer.unref();
  };
  process.on('SIGINT', onSigint);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSigint);
      if (timer) clearTimeout(timer);
    },
  };
}
