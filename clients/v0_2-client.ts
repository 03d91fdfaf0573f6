// A scripted v0.2 client, written from the interface (section 4.3) and the public clients' shapes:
// activation, multipart upload, StartSlicingTask with camelCase keys and lower-case x/y/z, progress
// polling until "1", printing information, a one-time download, and the cancel of a running task.
//   node dist/clients/v0_2-client.js http://127.0.0.1:8080 KEY model.stl
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LegacyClient, expect, expectSecondDownloadRefused } from './legacy-http.js';

export interface Xyz {
  x: number;
  y: number;
  z: number;
}

export interface V02FlowOptions {
  /** path of the STL to slice */
  model: string;
  printerModel?: string;
  position?: Xyz;
  scale?: Xyz;
  rotation?: Xyz;
  /** scale of the second task, which is cancelled while it runs (large = long slice) */
  cancelScale?: number;
  log?: (line: string) => void;
}

export interface V02FlowReport {
  fileId: string;
  taskId: string;
  info: { time: string; length: string; weight: string };
  outputName: string;
  output: Uint8Array;
  cancelledTaskId: string;
  /** the cancelled task's progress when it was cancelled, and after */
  progressAtCancel: string;
  progressAfterCancel: string;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function runV02Flow(serverRoot: string, key: string, opts: V02FlowOptions): Promise<V02FlowReport> {
  const client = new LegacyClient(`${serverRoot.replace(/\/$/, '')}/v0.2`, key, opts.log);
  const activation = await client.rpc('GetActivationStatus');
  expect(activation.activated === 'true', 'the slicer is not active');

  const fileName = basename(opts.model);
  const uploaded = await client.uploadFile(fileName, readFileSync(opts.model));
  const fileId = String(uploaded.fileId ?? uploaded.fileid);
  expect(ID.test(fileId) && uploaded.fileid === uploaded.fileId, `UploadFile result ${JSON.stringify(uploaded)}`);

  const start = (scale: Xyz, quality: string) =>
    client.rpc('StartSlicingTask', {
      fileName,
      fileId,
      supportType: 'n',
      printerModel: opts.printerModel ?? 'CR-10',
      configPresetName: quality,
      configFile: '',
      position: opts.position ?? { x: 0, y: 0, z: 0 },
      rotation: opts.rotation ?? { x: 0, y: 0, z: 0 },
      scale,
    });
  const started = await start(opts.scale ?? { x: 1, y: 1, z: 1 }, 'Recommended');
  const taskId = String(started.taskId);
  expect(ID.test(taskId) && started.taskid === taskId, `StartSlicingTask result ${JSON.stringify(started)}`);

  const end = await client.waitForEnd(taskId);
  expect(end === '1', `the task ended with progress ${end}`);

  const info = await client.rpc('GetPrintingInformation', { taskId });
  expect(/^\d+:\d\d:\d\d$/.test(String(info.time)), `time ${info.time}`);
  expect(/^\d+\.\d\dmeters?$/.test(String(info.length)), `length ${info.length}`);
  expect(/^\d+\.\d\dgrams?$/.test(String(info.weight)), `weight ${info.weight}`);

  const file = await client.downloadFile(taskId, 'GET');
  expect(/\.(gcode|fcode)$/.test(file.fileName) && file.bytes.length > 0, `download ${file.fileName}`);
  await expectSecondDownloadRefused(client, taskId);

  const s = opts.cancelScale ?? 3;
  const slow = await client.rpc('StartSlicingTask', {
    fileName,
    fileId,
    supportType: 'n',
    printerModel: opts.printerModel ?? 'CR-10',
    configPresetName: 'Highquality',
    configFile: '',
    position: { x: 0, y: 0, z: 0 },
    rotation: { x: 0, y: 0, z: 0 },
    scale: { x: s, y: s, z: s },
  });
  const cancelledTaskId = String(slow.taskId);
  const progressAtCancel = await client.waitForRunning(cancelledTaskId);
  expect(progressAtCancel !== '1' && progressAtCancel !== '-1', `the slow task ended (${progressAtCancel}) before it could be cancelled`);
  const cancel = await client.rpc('CancelSlicing', { taskId: cancelledTaskId });
  expect(cancel.status === 'cancelled', `CancelSlicing result ${JSON.stringify(cancel)}`);
  const after = await client.rpc('GetProgress', { taskId: cancelledTaskId });
  expect(after.progress === '-1', `progress after cancel ${after.progress}`);

  return {
    fileId,
    taskId,
    info: { time: String(info.time), length: String(info.length), weight: String(info.weight) },
    outputName: file.fileName,
    output: file.bytes,
    cancelledTaskId,
    progressAtCancel,
    progressAfterCancel: String(after.progress),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, key, model] = process.argv.slice(2);
  if (!root || !key || !model) {
    console.error('usage: node dist/clients/v0_2-client.js SERVER_ROOT KEY MODEL.stl');
    process.exit(2);
  }
  runV02Flow(root, key, { model, log: (l) => console.log(l) })
    .then((r) => console.log(`ok: ${r.outputName} (${r.output.length} bytes), ${r.info.time}, cancelled ${r.cancelledTaskId}`))
    .catch((err) => {
      console.error(String(err?.message ?? err));
      process.exit(1);
    });
}
