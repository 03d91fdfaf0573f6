// v0.2 UploadFile's multipart bodies as a hostile or broken client sends them: a body that ends
// before the file part does, no boundary, a file named with a path, a client that goes away mid-part,
// a FileName sent after the file. Each answers in the legacy envelope
// (or just cleans up) and leaves no partial file behind.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { waitFor, startTestServer, type TestServer } from './api-helpers.js';

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/** POSTs `body` to /v0.2/UploadFile with the given Content-Type; gives up after 5 s (a hang). */
function post(t: TestServer, contentType: string, body: Buffer, query = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { 'Ocp-Apim-Subscription-Key': t.key, 'Content-Type': contentType, 'Content-Length': body.length };
    const req = request(`${t.url}/v0.2/UploadFile${query}`, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : undefined, text }));
    });
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end(body);
  });
}

const filePart = (filename: string, content: string) =>
  `--xx\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n${content}`;

describe('v0.2 UploadFile: broken multipart bodies', () => {
  let t: TestServer;
  const tmpFiles = () => {
    const dir = join(t.dataDir, 'blobs', 'tmp');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t?.close());

  test('a body that ends before the closing boundary answers 400 URE000 and keeps nothing', async () => {
    const r = await post(t, 'multipart/form-data; boundary=xx', Buffer.from(filePart('a.stl', 'abc')));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.apiVersion, '0.2');
    assert.equal(r.body.error.errorCode, 'URE000');
    assert.match(r.body.error.errorMessage, /ended before/);
    await waitFor('the partial file to go', async () => tmpFiles().length === 0, 2000);
    // a complete body on the next request is stored
    const ok = await post(t, 'multipart/form-data; boundary=xx', Buffer.from(`${filePart('a.stl', 'solid a\nendsolid a\n')}\r\n--xx--\r\n`));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.result.fileName, 'a.stl');
  });

  test('multipart without a boundary is a client mistake: 400 URE000, not 500', async () => {
    const r = await post(t, 'multipart/form-data', Buffer.from('abc'));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.error.errorCode, 'URE000');
    assert.match(r.body.error.errorMessage, /multipart.*[Bb]oundary/);
  });

  test('a part named file with no filename and no type (.NET ByteArrayContent) is the file, whole past 64 KiB', async () => {
    const stl = `solid a\n${'facet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\n'.repeat(1200)}endsolid a\n`;
    assert.ok(stl.length > 64 * 1024);
    const body =
      '--xx\r\nContent-Disposition: form-data; name=FileName\r\n\r\nnf.stl\r\n' +
      `--xx\r\nContent-Disposition: form-data; name=file\r\n\r\n${stl}\r\n--xx--\r\n`;
    const r = await post(t, 'multipart/form-data; boundary=xx', Buffer.from(body));
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.result.fileName, 'nf.stl');
    const stored = readdirSync(join(t.dataDir, 'blobs'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    assert.ok(stored.some((e) => statSync(join(e.parentPath ?? e.path, e.name)).size === stl.length), 'the whole file is stored');
  });

  test('a file part named with a path is refused as v1 refuses such names, not stored under its last segment', async () => {
    for (const name of ['../../etc/x.stl', 'models/x.stl']) {
      const r = await post(t, 'multipart/form-data; boundary=xx', Buffer.from(`${filePart(name, 'solid a\nendsolid a\n')}\r\n--xx--\r\n`));
      assert.equal(r.status, 400, `${name}: ${r.text}`);
      assert.equal(r.body.error.errorCode, 'URE000');
      assert.match(r.body.error.errorMessage, /path separator/);
    }
  });

  test('a client that goes away in the middle of the file part leaves no partial file', async () => {
    const head = Buffer.from(filePart('big.stl', ''));
    let partial = 0;
    await new Promise<void>((resolve) => {
      const req = request(`${t.url}/v0.2/UploadFile`, {
        method: 'POST',
        headers: { 'Ocp-Apim-Subscription-Key': t.key, 'Content-Type': 'multipart/form-data; boundary=xx', 'Content-Length': 400_000 },
      });
      req.on('error', () => resolve());
      req.on('close', () => resolve());
      req.write(Buffer.concat([head, Buffer.alloc(200_000, 1)]), () => setTimeout(() => {
        partial = tmpFiles().length;
        req.destroy();
      }, 200));
    });
    assert.ok(partial >= 1, 'the upload was under way');
    await waitFor('the server to drop the partial upload', async () => tmpFiles().length === 0, 5000);
  });

  /** Files in the blob store (recorded or not). */
  const blobs = () => readdirSync(join(t.dataDir, 'blobs'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  const STL = 'solid a\nendsolid a\n';
  const field = (name: string, value: string) => `--xx\r\nContent-Disposition: form-data; name=${name}\r\n\r\n${value}\r\n`;

  test('a FileName field after the file part names the file (a part called blob, or no file name at all)', async () => {
    for (const part of [filePart('blob', STL), `--xx\r\nContent-Disposition: form-data; name=file\r\n\r\n${STL}`, filePart('a.stl', STL)]) {
      const r = await post(t, 'multipart/form-data; boundary=xx', Buffer.from(`${part}\r\n${field('FileName', 'after.stl')}--xx--\r\n`));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.result.fileName, 'after.stl');
    }
  });

  test('with ?filename= too: a FileName field before or after the file wins, and a wrong one is refused', async () => {
    const form = (before: string, after: string) => Buffer.from(`${before}${filePart('blob', STL)}\r\n${after}--xx--\r\n`);
    const named = async (body: Buffer, query: string) => post(t, 'multipart/form-data; boundary=xx', body, query);
    assert.equal((await named(form(field('FileName', 'first.stl'), ''), '?filename=q.stl')).body.result.fileName, 'first.stl');
    assert.equal((await named(form('', field('FileName', 'after.stl')), '?filename=q.stl')).body.result.fileName, 'after.stl');
    assert.equal((await named(form('', ''), '?filename=q.stl')).body.result.fileName, 'q.stl');
    const evil = await named(form('', field('FileName', '../evil.obj')), '?filename=q.stl');
    assert.equal(evil.status, 400, evil.text);
    assert.match(evil.body.error.errorMessage, /FileName '\.\.\/evil\.obj' must end in \.stl/);
    const badQuery = await named(form('', ''), '?filename=model.obj');
    assert.equal(badQuery.status, 400, badQuery.text);
    assert.match(badQuery.body.error.errorMessage, /filename 'model\.obj' must end in \.stl/);
  });

  test('a file with no usable name before or after it is refused and nothing is kept', async () => {
    await waitFor('earlier uploads to settle', async () => tmpFiles().length === 0, 2000);
    const before = blobs();
    const cases: Array<[string, RegExp]> = [
      [`--xx\r\nContent-Disposition: form-data; name=file\r\n\r\n${STL}\r\n--xx--\r\n`, /FileName is required/],
      [`${filePart('blob', STL)}\r\n--xx--\r\n`, /file name 'blob' must end in \.stl/],
      [`${filePart('blob', STL)}\r\n${field('FileName', 'model.obj')}--xx--\r\n`, /FileName 'model\.obj' must end in \.stl/],
      [`${filePart('a.stl', STL)}\r\n${field('FileName', '../a.stl')}--xx--\r\n`, /path separator/],
    ];
    for (const [body, message] of cases) {
      const r = await post(t, 'multipart/form-data; boundary=xx', Buffer.from(body));
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.error.errorCode, 'URE000');
      assert.match(r.body.error.errorMessage, message);
    }
    assert.equal(blobs(), before, 'no blob left behind');
  });
});
