// Operations endpoints and configuration: health, readiness, Prometheus metrics, the OpenAPI 3.1
// document and the local API reference page, request ids, and how settings are loaded.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, layerThreadsFor, loadConfig } from '../src/service/config.js';
import { availableParallelism } from 'node:os';
import { call, postDeclaring, removeDir, startTestServer, tempDir, upload, type TestServer } from './api-helpers.js';

describe('operations endpoints', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.close());

  test('/healthz and /readyz answer without credentials', async () => {
    assert.deepEqual((await call(t.url, '/healthz')).body, { status: 'ok' });
    const ready = await call(t.url, '/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready' });
  });

  test('/metrics: tasks by status, queue depth, upload bytes, HTTP requests', async () => {
    await upload(t, 'EXTRA', 'notes.txt', 'x'.repeat(1234));
    const m = await call(t.url, '/metrics');
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.match(m.text, /^stratum_tasks\{status="finished"\} 0$/m);
    assert.match(m.text, /^stratum_queue_depth 0$/m);
    assert.match(m.text, /^stratum_upload_bytes_total 1234$/m);
    assert.match(m.text, /^stratum_uploads_total\{type="EXTRA"\} 1$/m);
    assert.match(m.text, /^# TYPE stratum_slice_duration_seconds histogram$/m);
    assert.match(m.text, /^stratum_http_requests_total\{method="POST",route="\/v1\/upload\/:fileType\/:fileName",status="200"\} 1$/m);
    // requests fastify refuses before routing (an over-long or undecodable path) are counted too
    assert.equal((await call(t.url, `/v1/stl/tasks/${'a'.repeat(1001)}`, { key: t.key })).status, 400);
    assert.equal((await call(t.url, '/v1/ws/tasks/%zz', { key: t.key })).status, 400);
    const after = await call(t.url, '/metrics');
    assert.match(after.text, /^stratum_http_requests_total\{method="GET",route="unmatched",status="400"\} 2$/m);
  });

  test('/openapi.json is OpenAPI 3.1 built from the route schemas', async () => {
    const doc = (await call(t.url, '/openapi.json')).body;
    assert.equal(doc.openapi, '3.1.0');
    for (const path of [
      '/v1/upload/{fileType}/{fileName}',
      '/v1/ws/tasks',
      '/v1/stl/tasks',
      '/v1/stl/tasks/{taskId}',
      '/v1/ws/tasks/{taskId}/cancel',
      '/v1/ws/tasks/{taskId}/events',
      '/v1/output/{outputId}/download',
      '/v1/files/{fileId}',
      '/oauth2/token',
      '/metrics',
    ]) {
      assert.ok(doc.paths[path], `${path} is documented`);
    }
    assert.ok(doc.paths['/v1/stl/tasks/{taskId}'].get && doc.paths['/v1/stl/tasks/{taskId}'].post, 'GET and POST read a task');
    assert.deepEqual(doc.components.schemas.Task.properties.status.enum, ['queued', 'started', 'running', 'finished', 'failed', 'cancelled']);
    assert.equal(doc.components.securitySchemes.subscriptionKey.name, 'Ocp-Apim-Subscription-Key');
    const ok = doc.paths['/v1/ws/tasks'].post.responses['200'];
    assert.match(JSON.stringify(ok), /#\/components\/schemas\/Task/);

    // what a client generated from the document needs (an outside conformance check found each gap)
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>).flatMap((p) => Object.values(p));
    const ids = ops.map((o) => o.operationId);
    assert.ok(ids.every((id) => typeof id === 'string' && /^[A-Za-z0-9_]+$/.test(id)), 'every operation has an operationId');
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    assert.equal(doc.paths['/v1/stl/tasks'].post.operationId, 'v1_postStlTasks');
    assert.deepEqual(Object.keys(doc.paths['/v0.2/UploadFile'].post.requestBody.content).sort(), ['application/octet-stream', 'multipart/form-data']);
    for (const status of ['413', '415', '431', '503']) assert.ok(doc.paths['/v1/stl/tasks'].post.responses[status], `a task start declares ${status}`);
    assert.ok(doc.paths['/v1/upload/{fileType}/{fileName}'].post.responses['503'], 'an upload declares 503');
    assert.deepEqual(doc.paths['/v1/output/{outputId}/download'].get.responses['200'].headers['Content-Disposition'].schema, { type: 'string' }, 'a download declares its file name header, a string');
    assert.ok(doc.paths['/v0.2/DownloadFile'].get.responses['200'].headers['Content-Disposition']);
    assert.deepEqual(Object.keys(doc.paths['/oauth2/token'].post.requestBody.content).sort(), ['application/json', 'application/x-www-form-urlencoded']);
    assert.equal(doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl, '/oauth2/token');
    assert.deepEqual(doc.paths['/healthz'].get.security, [], 'public operations say so');
    assert.deepEqual(doc.paths['/metrics'].get.security, []);

    // a generated client types a field it is not told is always there as optional: every object
    // in every answer says which of its fields it always has
    const unsaid = objectsWithoutRequired(doc);
    assert.deepEqual(unsaid, [], 'response objects without `required`');
    const progress = doc.paths['/v0.2/GetProgress'].post.responses['200'].content['application/json'].schema;
    assert.deepEqual(progress.required, ['apiVersion', 'coreVersion', 'realvisionHtmlVersion', 'result']);
    assert.deepEqual(progress.properties.result.required, ['progress', 'status'], 'a failed task\'s error is the one optional field');
  });

  test('a task start sent as text/plain is 415, as a form is', async () => {
    const body = JSON.stringify({ files: [{ fileId: '00000000-0000-4000-8000-000000000000' }], settings: { printerModel: 'Creality Ender 3' } });
    for (const path of ['/v1/stl/tasks', '/v0.3/stl/tasks']) {
      const r = await call(t.url, path, { key: t.key, body, headers: { 'Content-Type': 'text/plain' } });
      assert.equal(r.status, 415, `${path}: ${r.text}`);
      assert.equal(r.body.errorCode, 'URE000');
    }
  });

  test('a compressed body to any operation that takes one answers a status the document declares', async () => {
    const doc = (await call(t.url, '/openapi.json')).body;
    const id = '00000000-0000-4000-8000-000000000000';
    const gz = gzipSync(Buffer.from('{}'));
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      for (const method of ['post', 'put', 'patch', 'delete']) {
        const op = item[method];
        if (!op) continue;
        const url = path.replace(/\{\w+\}/g, (m) => (m === '{fileType}' ? 'STL' : m === '{fileName}' ? 'a.stl' : id));
        const r = await call(t.url, url, { method: method.toUpperCase(), key: t.key, body: gz, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' } });
        assert.ok(op.responses[String(r.status)], `${method.toUpperCase()} ${path} answered ${r.status}, which it does not declare`);
        checked++;
      }
    }
    assert.ok(checked >= 20, `${checked} operations checked`);
  });

  test('a body a route does not take is still read: what that answers, the document declares', async () => {
    // every POST and DELETE of a task or a file by id, with a form's type (as `curl -d` sends) and
    // with more than 1 MiB of JSON: the status must be one the operation declares
    const doc = (await call(t.url, '/openapi.json')).body;
    const id = '00000000-0000-4000-8000-000000000000';
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
      if (!/\{(taskId|fileId)\}/.test(path) || !/^\/v(1|0\.3)\//.test(path)) continue;
      for (const method of ['post', 'delete']) {
        const op = item[method];
        if (!op) continue;
        const url = path.replace(/\{\w+\}/, id);
        // (a field, not an empty body: Node 20.10's fetch sends a DELETE's empty body with a wrong length)
        const form = await call(t.url, url, { method: method.toUpperCase(), key: t.key, body: 'a=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
        // over 1 MiB declared (the server refuses it from the header)
        const big = await postDeclaring(t.url, url, t.key, 'application/json', 1_100_000, '"xxxx', 5000, method.toUpperCase());
        for (const r of [form, big]) assert.ok(op.responses[String(r.status)], `${method.toUpperCase()} ${path} answered ${r.status}, which it does not declare`);
        // a form is text to these routes, which read no body (as text/plain): the unknown id answers
        assert.equal(form.status, 404, `${method} ${path}`);
        assert.equal(big.status, 413, `${method} ${path}`);
        checked++;
      }
    }
    assert.ok(checked >= 10, `${checked} operations checked`);
  });

  test('/docs serves the API reference with its script from this server', async () => {
    const page = await call(t.url, '/docs/');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const scripts = [...page.text.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(scripts.length > 0);
    for (const src of scripts) assert.doesNotMatch(src, /^https?:/, `script ${src} is local`);
    const js = await call(t.url, `/docs/${scripts[0]!.replace(/^\.?\//, '').replace(/^docs\//, '')}`);
    assert.equal(js.status, 200);
    assert.ok(js.bytes.length > 100_000);
  });

  test('a request id is answered in x-request-id, the caller\'s own when it sent one', async () => {
    const mine = await call(t.url, '/healthz', { headers: { 'x-request-id': 'trace-42' } });
    assert.equal(mine.headers.get('x-request-id'), 'trace-42');
    const generated = await call(t.url, '/healthz');
    assert.match(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });
});

describe('configuration', () => {
  const dir = tempDir('config');
  after(() => removeDir(dir));

  test('defaults, then the config file, then the environment, then flags', () => {
    const d = loadConfig({ env: {} });
    assert.equal(d.port, 8080);
    assert.equal(d.retentionDays, 7);
    assert.ok(d.workers >= 1);
    assert.equal(d.dataDir, join(process.cwd(), 'data'));
    const file = join(dir, 'stratum.json');
    writeFileSync(file, JSON.stringify({ port: 9000, workers: 3, maxUploadBytes: 1000, dataDir: dir }));
    const fromFile = loadConfig({ env: { STRATUM_CONFIG: file } });
    assert.deepEqual([fromFile.port, fromFile.workers, fromFile.maxUploadBytes, fromFile.dataDir], [9000, 3, 1000, dir]);
    const fromEnv = loadConfig({ env: { STRATUM_CONFIG: file, PORT: '9100', STRATUM_RETENTION_DAYS: '0.5', STRATUM_METRICS_PUBLIC: 'false' } });
    assert.deepEqual([fromEnv.port, fromEnv.workers, fromEnv.retentionDays, fromEnv.metricsPublic], [9100, 3, 0.5, false]);
    const fromFlags = loadConfig({ env: { STRATUM_CONFIG: file, PORT: '9100' }, overrides: { port: '9200', workers: undefined } });
    assert.deepEqual([fromFlags.port, fromFlags.workers], [9200, 3]);
  });

  test('layer threads share the cores among the workers unless set', () => {
    const cores = availableParallelism();
    assert.equal(layerThreadsFor({ layerThreads: 0, workers: 1 }), cores);
    assert.equal(layerThreadsFor({ layerThreads: 0, workers: cores * 2 }), 1);
    assert.equal(layerThreadsFor({ layerThreads: 3, workers: 1 }), 3);
    assert.equal(loadConfig({ env: { STRATUM_LAYER_THREADS: '1' } }).layerThreads, 1);
  });

  test('bad values are refused with the source named', () => {
    assert.throws(() => loadConfig({ env: { STRATUM_WORKERS: 'two' } }), (e: Error) => e instanceof ConfigError && /STRATUM_WORKERS/.test(e.message));
    assert.throws(() => loadConfig({ env: { STRATUM_WORKERS: '0' } }), /at least 1/);
    // a 0 s lease made every task fail as interrupted; a 0 s timeout stopped every slice
    assert.throws(() => loadConfig({ env: { STRATUM_LEASE_S: '0' } }), /STRATUM_LEASE_S.*at least 1/);
    assert.throws(() => loadConfig({ env: { STRATUM_TASK_TIMEOUT_S: '0' } }), /STRATUM_TASK_TIMEOUT_S.*at least 1/);
    assert.throws(() => loadConfig({ env: { PORT: '70000' } }), /port/);
    assert.throws(() => loadConfig({ env: { STRATUM_LOG_LEVEL: 'loud' } }), /log level/);
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ prot: 1 }));
    assert.throws(() => loadConfig({ env: {}, configFile: file }), /unknown key 'prot'/);
  });
});

type JsonSchema = { $ref?: string; type?: string; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; oneOf?: JsonSchema[]; anyOf?: JsonSchema[]; allOf?: JsonSchema[] };

/** Where in the document's answers an object with fields declares none of them required. */
function objectsWithoutRequired(doc: {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> }>>;
  components: { schemas: Record<string, JsonSchema> };
}): string[] {
  const found: string[] = [];
  const walk = (schema: JsonSchema, where: string, seen: ReadonlySet<string>): void => {
    if (schema.$ref) {
      const name = schema.$ref.split('/').pop()!;
      if (seen.has(name)) return;
      seen = new Set([...seen, name]);
      schema = doc.components.schemas[name]!;
      assert.ok(schema, `${where}: ${name} is defined`);
    }
    if (schema.type === 'object' && schema.properties && Object.keys(schema.properties).length && !schema.required?.length) found.push(where);
    for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, `${where}.${key}`, seen);
    if (schema.items) walk(schema.items, `${where}[]`, seen);
    for (const list of [schema.oneOf, schema.anyOf, schema.allOf]) for (const [i, s] of (list ?? []).entries()) walk(s, `${where}/${i}`, seen);
  };
  let answers = 0;
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        for (const content of Object.values(response.content ?? {})) {
          if (!content.schema) continue;
          answers++;
          walk(content.schema, `${method.toUpperCase()} ${path} ${status}`, new Set());
        }
      }
    }
  }
  assert.ok(answers > 100, `the walk saw the answers (${answers})`);
  return found;
}
