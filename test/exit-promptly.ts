// Imported for its effect by the helpers of every test file that runs a server in-process or calls
// one with fetch. Such a file, run to its natural end on Node 20.10, now and then never exited: with
// all its tests passed, the process spun at full CPU in Node's teardown (gdb: FreeEnvironment →
// NodePlatform::DrainTasks → FinalizationRegistryCleanupTask::RunInternal →
// PostFinalizationRegistryCleanupTaskIfNeeded, over and over; nodejs/node#47748). A cleanup of a
// FinalizationRegistry was pending as the process ended, and fetch registers every response in one,
// so the service's own precaution (no AbortSignal.timeout, src/cli/serve.ts) is not enough here.
// Once the test runner has written its report, the process leaves by process.exit from the 'exit'
// event, which ends it without that teardown (src/cli/serve.ts leaves the same way).
//
// The listener is added at the first 'beforeExit', when the test runner's own listeners are in
// place, so that it runs after them.
process.once('beforeExit', () => {
  process.on('exit', (code) => process.exit(code));
});
