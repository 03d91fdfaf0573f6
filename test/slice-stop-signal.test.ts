// How a slicing thread hears the runner's stop request: the message on the progress port arrives
// only where the slice yields, so the shared flag makes `aborted` true at once for code that does not
// yield (the support pass checks it between layers); the layer pool listens for the message.
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { test, type TestContext } from 'node:test';
import { stopSignalFor } from '../src/runner/slice-worker.js';
import { slice } from '../src/engine/pipeline.js';
import { SliceCancelled } from '../src/engine/index.js';
import { defaultSettings } from '../src/profiles/defaults.js';
import { box } from './mesh-fixtures.js';

/** A stop signal as a slicing thread makes it, with the runner's end of its port and its flag. */
function stopChannel(t: TestContext) {
  const { port1, port2 } = new MessageChannel();
  const stopFlag = new Int32Array(new SharedArrayBuffer(4));
  // open ports would keep the test process alive after a failed assertion
  t.after(() => {
    port1.close();
    port2.close();
  });
  return { port1, stopFlag, signal: stopSignalFor({ progressPort: port2, stopFlag }) };
}

test('the stop flag aborts at once, without the event loop; the message wakes listeners', async (t) => {
  const { port1, stopFlag, signal } = stopChannel(t);
  let heard = 0;
  signal.addEventListener('abort', () => heard++);
  assert.equal(signal.aborted, false);
  Atomics.store(stopFlag, 0, 1);
  assert.equal(signal.aborted, true, 'seen synchronously');
  assert.equal(heard, 0);
  port1.postMessage({ stop: true });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(heard, 1, 'the message aborts the signal for its listeners');
});

test('a slice whose stop flag is set in a stretch that does not yield (the support pass) stops there', async (t) => {
  // an overhanging T: the support pass runs before any layer is planned
  const parts = [box(0, 0, 0, 4, 4, 20), box(-15, -15, 20, 19, 19, 22)];
  const positions = Float32Array.from(parts.flatMap((p) => [...p.positions]));
  const indices = Uint32Array.from(parts.flatMap((p, k) => [...p.indices].map((i) => i + k * (parts[0]!.positions.length / 3))));
  const s = { ...defaultSettings(), supportType: 'everywhere' as const };
  const { stopFlag, signal } = stopChannel(t);
  const stages: string[] = [];
  await assert.rejects(
    slice([{ name: 't', mesh: { positions, indices } }], s, {
      signal,
      onProgress: (_f, stage) => {
        stages.push(stage);
        // set from "another thread" while the support pass runs: no message can arrive meanwhile
        if (stage === 'support') Atomics.store(stopFlag, 0, 1);
      },
    }),
    SliceCancelled,
  );
  assert.ok(stages.includes('support'));
  assert.ok(!stages.some((st) => st !== 'support' && stages.indexOf(st) > stages.indexOf('support')), `nothing after the support pass ran: ${[...new Set(stages)].join(', ')}`);
});
