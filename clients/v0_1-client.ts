// A scripted v0.1 client, written from the interface (section 4.4) and the public clients' shapes:
// activation, ProvideFile with the workspace inline (WsConfigs as a JSON string, as the interface
// text has it, and as an object, as some clients sent it), progress until "1", printing
// information, a one-time download, and the cancel of a running task.
//   node dist/clients/v0_1-client.js http://127.0.0.1:8080 KEY model.stl
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LegacyClient, expect, expectSecondDownloadRefused } from './legacy-http.js';
import { workspaceFromStl } from './workspace-from-stl.js';

export interface V01FlowOptions {
  /** the STL the workspace is built from */
  model: string;
  printerModel?: string;
  /** the printer's bed centre, mm */
  bedCentre?: [number, number];
  /** scale of the workspace that is cancelled while it slices (large = long slice) */
  cancelScale?: number;
  log?: (line: string) => void;
}

export interface V01FlowReport {
  taskId: string;
  info: { time: string; length: string; weight: string };
  outputName: string;
  output: Uint8Array;
  cancelledTaskId: string;
  progressAfterCancel: string;
}

export async function runV01Flow(serverRoot: string, key: string, opts: V01FlowOptions): Promise<V01FlowReport> {
  const client = new LegacyClient(`${serverRoot.replace(/\/$/, '')}/v0.1`, key, opts.log);
  const printerModel = opts.printerModel ?? 'Creality Ender 3';
  const centre = opts.bedCentre ?? [110, 110];
  const name = basename(opts.model).replace(/\.[^.]+$/, '');
  const activation = await client.rpc('GetActivationStatus');
  expect(activation.activated === 'true', 'the slicer is not active');

  const provided = await client.rpc('ProvideFile', {
    file: { FileName: `${name}.rvwj`, WsConfigs: JSON.stringify(workspaceFromStl(opts.model, centre)) },
    supportType: 'n',
    printerModel,
    configPresetName: 'Recommended',
    configFile: '',
  });
  const taskId = String(provided.taskId);
  expect(provided.taskid === taskId, `ProvideFile result ${JSON.stringify(provided)}`);
  const end = await client.waitForEnd(taskId);
  expect(end === '1', `the task ended with progress ${end}`);

  const info = await client.rpc('GetPrintingInformation', { taskId });
  expect(/^\d+:\d\d:\d\d$/.test(String(info.time)), `time ${info.time}`);
  expect(/^\d+\.\d\dmeters?$/.test(String(info.length)), `length ${info.length}`);
  expect(/^\d+\.\d\dgrams?$/.test(String(info.weight)), `weight ${info.weight}`);

  // older clients download with POST and the id in a JSON body as well as the query
  const file = await client.downloadFile(taskId, 'POST');
  expect(file.fileName === `${name}.gcode` || file.fileName === `${name}.fcode`, `download named ${file.fileName}`);
  await expectSecondDownloadRefused(client, taskId);

  const slow = await client.rpc('ProvideFile', {
    file: { FileName: `${name}-large.rvwj`, WsConfigs: workspaceFromStl(opts.model, centre, opts.cancelScale ?? 3) },
    supportType: 'n',
    printerModel,
    configPresetName: 'Highquality',
  });
  const cancelledTaskId = String(slow.taskId);
  const at = await client.waitForRunning(cancelledTaskId);
  expect(at !== '1' && at !== '-1', `the large task ended (${at}) before it could be cancelled`);
  const cancel = await client.rpc('CancelSlicing', { taskId: cancelledTaskId });
  expect(cancel.status === 'cancelled', `CancelSlicing result ${JSON.stringify(cancel)}`);
  const after = await client.rpc('GetProgress', { taskId: cancelledTaskId });
  expect(after.progress === '-1', `progress after cancel ${after.progress}`);

  return {
    taskId,
    info: { time: String(info.time), length: String(info.length), weight: String(info.weight) },
    outputName: file.fileName,
    output: file.bytes,
    cancelledTaskId,
    progressAfterCancel: String(after.progress),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, key, model] = process.argv.slice(2);
  if (!root || !key || !model) {
    console.error('usage: node dist/clients/v0_1-client.js SERVER_ROOT KEY MODEL.stl');
    process.exit(2);
  }
  runV01Flow(root, key, { model, log: (l) => console.log(l) })
    .then((r) => console.log(`ok: ${r.outputName} (${r.output.length} bytes), ${r.info.time}, cancelled ${r.cancelledTaskId}`))
    .catch((err) => {
      console.error(String(err?.message ?? err));
      process.exit(1);
    });
}
