// The scripted stand-in worker (runner-fake-worker.ts), except that the first thread to load it
// fails while loading (as a worker thread whose module cannot load does): test/warm-up.test.ts.
// The marker file in STRATUM_TEST_BROKEN_START says that the failure has happened. No tests in here.
import { existsSync, writeFileSync } from 'node:fs';

const marker = process.env.STRATUM_TEST_BROKEN_START;
if (marker && !existsSync(marker)) {
  writeFileSync(marker, 'failed once\n');
  throw new Error('this worker thread fails to start');
}
export { default } from './runner-fake-worker.js';
