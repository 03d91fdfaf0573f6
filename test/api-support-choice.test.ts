// Which support a v1 task prints: settings.supportType when the task sends it (it wins over an
// override of the same setting); without it, an override or the XML configuration chooses, as they
// do on the command line (`--set supportType=…`). The service used to take 'n' for a missing
// supportType and let it beat both, silently: the override asked for support and none was printed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { call, startTestServer, upload, waitForStatus, type TestServer } from './api-helpers.js';
import { binaryStl, box, merge, soup } from './mesh-fixtures.js';

let t: TestServer;
let fileId: string;
before(async () => {
  t = await startTestServer({ warmUp: false });
  // a 3 mm post under a 16 mm plate: the plate's overhang needs support
  const tee = merge(box(0, 0, 0, 3, 3, 4), box(-6.5, -6.5, 4, 9.5, 9.5, 5));
  fileId = (await upload(t, 'STL', 'tee.stl', binaryStl(soup(tee)))).body.fileId;
});
after(async () => t.close());

async function run(settings: Record<string, unknown>, xml?: string): Promise<{ echo: string; support: boolean }> {
  const files: Array<Record<string, string>> = [{ fileId, type: 'STL', fileName: 'tee.stl' }];
  if (xml) files.push({ fileId: (await upload(t, 'XML', 'c.xml', xml)).body.fileId, type: 'XML', fileName: 'c.xml' });
  const start = await call(t.url, '/v1/stl/tasks', { key: t.key, json: { files, settings: { printerModel: 'Creality Ender 3', ...settings } } });
  assert.equal(start.status, 200, start.text);
  const done = await waitForStatus(t, 'stl', start.body.taskId, ['finished', 'failed'], 60_000);
  assert.equal(done.status, 'finished', JSON.stringify(done.error));
  const dl = await call(t.url, `/v1/output/${done.output.outputId}/download`, { key: t.key });
  return { echo: done.settings.supportType, support: dl.text.includes(';TYPE:SUPPORT') };
}

const XML_EVERYWHERE = '<configuration><setting name="supportType">everywhere</setting></configuration>';

test('no settings.supportType: an override or the XML configuration chooses, and the task echoes what it chose', async () => {
  assert.deepEqual(await run({ overrides: { supportType: 'everywhere' } }), { echo: 'e', support: true });
  assert.deepEqual(await run({}, XML_EVERYWHERE), { echo: 'e', support: true });
  assert.deepEqual(await run({}), { echo: 'n', support: false });
});

test('settings.supportType sent: it wins over an override and the XML configuration', async () => {
  assert.deepEqual(await run({ supportType: 'n', overrides: { supportType: 'everywhere' } }), { echo: 'n', support: false });
  assert.deepEqual(await run({ supportType: 'N' }, XML_EVERYWHERE), { echo: 'n', support: false });
  assert.deepEqual(await run({ supportType: 'b' }), { echo: 'b', support: true });
});
