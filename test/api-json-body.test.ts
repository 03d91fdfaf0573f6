// A JSON body with a key that poisons prototypes (`__proto__`, `constructor.prototype`) is refused
// with 400 URE000 saying so, not "the request body is not valid JSON", and a body that is not JSON
// says where it breaks; on the v1 and legacy paths, small bodies and large (parsed on a thread).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, startTestServer, type TestServer } from './api-helpers.js';
import { parseGuarded } from '../src/api/json-guard.js';

const PROTO = /^the key "__proto__" is not allowed in a request body$/;
const CONSTRUCTOR = /^the key "constructor" with a "prototype" in it is not allowed in a request body$/;

describe('JSON bodies with forbidden keys', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.close());
  const post = (path: string, body: string) => call(t.url, path, { key: t.key, body, headers: { 'Content-Type': 'application/json' } });

  test('v1: the forbidden key is named, wherever it is and however it is spelled', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{"__proto__": {"x": 1}}', PROTO],
      ['{"files": [], "settings": {"overrides": {"__proto__": {"retractLength": 1}}}}', PROTO],
      ['{"files": [], "settings": {"overrides": {"\\u005f\\u005fproto\\u005f\\u005f": 1}}}', PROTO],
      ['{"files": [{"constructor": {"prototype": {"x": 1}}}]}', CONSTRUCTOR],
    ];
    for (const [body, message] of cases) {
      const r = await post('/v1/stl/tasks', body);
      assert.equal(r.status, 400, body);
      assert.equal(r.body.errorCode, 'URE000', body);
      assert.match(r.body.message, message, body);
    }
    // a key merely named constructor is data like any other: refused later for what it is
    const plain = await post('/v1/stl/tasks', '{"constructor": 1}');
    assert.equal(plain.status, 400);
    assert.match(plain.body.message, /files/);
  });

  test('v1: a body that is not JSON says where it breaks', async () => {
    const r = await post('/v1/stl/tasks', '{"files": [');
    assert.equal(r.status, 400);
    assert.equal(r.body.errorCode, 'URE000');
    assert.match(r.body.message, /^the request body is not valid JSON: \S/);
    assert.doesNotMatch(r.body.message, /content-type is set/);
  });

  test('legacy: JSON sent under a type the calls do not read says so, not only that a field is missing', async () => {
    const body = '{"taskid": "00000000-0000-4000-8000-000000000000"}';
    const r = await call(t.url, '/v0.2/GetProgress', { key: t.key, body, headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(r.status, 400, r.text);
    assert.match(r.body.error.errorMessage, /^taskid is required .*\(the body was not read: its Content-Type application\/octet-stream is not application\/json\)$/);
    // the id in the query still works under any type, as legacy clients send it
    const q = await call(t.url, '/v0.2/GetProgress?taskid=00000000-0000-4000-8000-000000000000', { key: t.key, body: 'x', headers: { 'Content-Type': 'application/octet-stream' } });
    assert.equal(q.status, 404, q.text);
    assert.equal(q.body.error.errorCode, 'URE005');
  });

  test('legacy: the same reason in the legacy envelope, for a small body', async () => {
    const r = await post('/v0.1/ProvideFile', '{"file": {"FileName": "a.rvwj"}, "__proto__": {"x": 1}}');
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.errorCode, 'URE000');
    assert.match(r.body.error.errorMessage, PROTO);
  });
});

test('parseGuarded refuses what fastify refuses and reads everything else as JSON.parse does', () => {
  assert.throws(() => parseGuarded('{"a": [{"__proto__": null}]}'), { message: PROTO });
  assert.throws(() => parseGuarded('{"constructor": {"prototype": 1}}'), { message: CONSTRUCTOR });
  assert.throws(() => parseGuarded('{"a": '), SyntaxError);
  for (const text of ['{"constructor": {"name": "x"}}', '{"proto": "\\u00e9"}', '[1, 2, {"b": null}]']) {
    assert.deepEqual(parseGuarded(text), JSON.parse(text));
  }
});
