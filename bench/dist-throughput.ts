// Throughput of the distributed mode on one machine: tasks per minute with 1 and then 2 worker
// processes, one API process, PostgreSQL and s3rver started fresh (test/distributed/cluster.ts).
// Each round submits N calibration-cube tasks at once and times from the first submit to the last
// task's end. Worker processes run one slicing thread each (STRATUM_WORKERS=1).
//   node dist/bench/dist-throughput.js [--tasks N] [--workers 1,2] [--model FILE.stl]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { CUBE_STL, STL_SETTINGS, call, upload, waitFor } from '../test/api-helpers.js';
import { Cluster, type StratumProcess } from '../test/distributed/cluster.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '40' },
    workers: { type: 'string', default: '1,2' },
    model: { type: 'string', default: CUBE_STL },
  },
});
const tasks = Number(values.tasks);
const rounds = values.workers.split(',').map(Number);

const cluster = await Cluster.start();
try {
  const api = await cluster.spawn('api');
  const key = await cluster.createKey('bench');
  const up = await upload({ url: api.url, key }, 'STL', 'model.stl', readFileSync(values.model));
  if (up.status !== 200) throw new Error(`upload: ${up.status} ${up.text}`);
  const files = [{ fileId: up.body.fileId, type: 'STL', fileName: 'model.stl' }];
  const db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 1 });
  const workers: StratumProcess[] = [];
  for (const n of rounds) {
    while (workers.length < n) workers.push(await cluster.spawn('worker'));
    while (workers.length > n) await workers.pop()!.kill('SIGTERM');
    const started = Date.now();
    const ids = await Promise.all(
      Array.from({ length: tasks }, async () => {
        const r = await call(api.url, '/v1/stl/tasks', { key, json: { files, settings: STL_SETTINGS } });
        if (r.status !== 200) throw new Error(`start: ${r.status} ${r.text}`);
        return r.body.taskId as string;
      }),
    );
    const ended = async () =>
      Number((await db.query(`SELECT count(*) AS n FROM tasks WHERE status IN ('finished','failed') AND id = ANY($1)`, [ids])).rows[0].n);
    await waitFor(`${tasks} tasks`, async () => (await ended()) === tasks, 30 * 60_000, 200);
    const failed = Number((await db.query(`SELECT count(*) AS n FROM tasks WHERE status = 'failed' AND id = ANY($1)`, [ids])).rows[0].n);
    const s = (Date.now() - started) / 1000;
    // the slicing itself (inside the worker thread) against everything around it per task
    const sliceMs = Number(
      (await db.query(`SELECT avg((stats_json::json->>'sliceMs')::float) AS ms FROM tasks WHERE id = ANY($1)`, [ids])).rows[0].ms,
    );
    const perTask = (s * 1000 * n) / tasks;
    console.log(
      `${n} worker process${n > 1 ? 'es' : ''}: ${tasks} tasks in ${s.toFixed(1)} s = ${((tasks / s) * 60).toFixed(1)} tasks/min` +
        ` (worker time per task ${perTask.toFixed(0)} ms, of which slicing ${sliceMs.toFixed(0)} ms)${failed ? `, ${failed} failed` : ''}`,
    );
  }
  await db.end();
} finally {
  await cluster.stop();
}
