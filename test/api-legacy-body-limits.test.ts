// The legacy calls that carry workspaces inline (v0.1 ProvideFile, v0.2 StartSlicingTask) read their
// body as text. A body longer than the longest string Node holds killed the whole process (the
// conversion threw inside fastify's stream handler); a form body of hundreds of MB was decoded on
// the HTTP thread. Both are refused 413 now, before they are read, and the service stays up.
import assert from 'node:assert/strict';
import { constants as bufferConstants } from 'node:buffer';
import { after, before, describe, test } from 'node:test';
import { connect } from 'node:net';
import { inlineBodyLimit } from '../src/api/legacy/large-body.js';
import { ByteBudget } from '../src/api/legacy/body-budget.js';
import { ApiError } from '../src/service/errors.js';
import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { call, postDeclaring, startTestServer, type TestServer } from './api-helpers.js';

test('an inline body may be as large as an upload, up to the longest string Node holds', () => {
  assert.equal(inlineBodyLimit(1024), 1024);
  assert.equal(inlineBodyLimit(2 ** 40), bufferConstants.MAX_STRING_LENGTH);
  assert.ok(bufferConstants.MAX_STRING_LENGTH < 2 ** 40);
});

describe('legacy bodies past what can be read as text', () => {
  let t: TestServer;
  before(async () => {
    // an upload limit above the longest string: the case that took the process down
    t = await startTestServer({ maxUploadBytes: 1024 * 1024 * 1024 });
  });
  after(async () => t.close());

  test('a JSON body longer than the longest string is 413 URE000 at once, and the service stays up', async () => {
    const length = bufferConstants.MAX_STRING_LENGTH + 1;
    for (const [path, type] of [
      ['/v0.1/ProvideFile', 'application/json'],
      ['/v0.2/StartSlicingTask', 'application/x-www-form-urlencoded'],
      ['/v0.2/StartSlicingTask', 'text/plain'],
    ] as const) {
      const r = await postDeclaring(t.url, path, t.key, type, length, '{"printermodel":"CR-10","x":"aaaa');
      assert.equal(r.status, 413, `${path} ${type}: ${r.body}`);
      assert.equal(JSON.parse(r.body).error.errorCode, 'URE000', r.body);
    }
    const health = await call(t.url, '/healthz');
    assert.equal(health.status, 200);
  });

  test('a form body over 1 MiB is 413 URE000 without being decoded; a small form is still read', async () => {
    const big = 'printermodel=CR-10&file=' + '%20'.repeat(700_000);
    const r = await call(t.url, '/v0.1/ProvideFile', { key: t.key, body: big, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    assert.equal(r.status, 413, r.text);
    assert.equal(r.body.error.errorCode, 'URE000');
    assert.match(r.body.error.errorMessage, /form fields must stay under 1 MiB/);
    // the same fields, small: read as a form (and refused for what they hold, not for their size)
    const small = await call(t.url, '/v0.1/ProvideFile', { key: t.key, body: 'printermodel=CR-10', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    assert.equal(small.status, 400, small.text);
    assert.match(small.body.error.errorMessage, /file is required/);
  });
});

describe('legacy inline bodies held at once have a budget', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ inlineBodiesMb: 2, warmUp: false });
  });
  after(async () => t.close());

  test('past the budget a large body is 503 SF000 before it is read, over the whole budget 413; the bytes come back when a response ends', async () => {
    const { hostname, port } = new URL(t.url);
    const MB = 1024 * 1024;
    // a client sending 1.5 MB slowly holds 1.5 of the 2 MB from the moment its headers arrive
    const slow = connect(Number(port), hostname);
    await new Promise<void>((resolve) => slow.once('connect', resolve));
    slow.write(`POST /v0.1/ProvideFile HTTP/1.1\r\nHost: x\r\nOcp-Apim-Subscription-Key: ${t.key}\r\nContent-Type: application/json\r\nContent-Length: ${1.5 * MB}\r\n\r\n{"printermodel":"`);
    let busy: { status: number; body: string } | undefined;
    for (let i = 0; i < 50 && busy?.status !== 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      busy = await postDeclaring(t.url, '/v0.2/StartSlicingTask', t.key, 'application/json', 1.5 * MB, '{"printermodel":"', 2000).catch(() => undefined);
    }
    assert.equal(busy?.status, 503, busy?.body);
    assert.equal(JSON.parse(busy!.body).error.errorCode, 'SF000');
    assert.match(JSON.parse(busy!.body).error.errorMessage, /reading other large requests.*try again later/);
    const whole = await postDeclaring(t.url, '/v0.1/ProvideFile', t.key, 'text/plain', 3 * MB, '{"printermodel":"');
    assert.equal(whole.status, 413, whole.body);
    // the slow client goes away: its bytes are given back, and a body of the same size is read
    slow.destroy();
    const body = JSON.stringify({ printermodel: 'no such printer', padding: 'x'.repeat(1.5 * MB - 100) });
    let read: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 50 && (read === undefined || read.status === 503); i++) {
      await new Promise((r) => setTimeout(r, 100));
      read = await call(t.url, '/v0.1/ProvideFile', { key: t.key, body, headers: { 'Content-Type': 'application/json' } });
    }
    assert.notEqual(read!.status, 503, read!.text);
    assert.ok(read!.status >= 400 && read!.status < 500, read!.text);
    assert.equal((await call(t.url, '/healthz')).status, 200);
  });
});

test('the inline-body budget: a client gone before its body is let in is not counted; a queued parse keeps the bytes until it ends', () => {
  const budget = new ByteBudget(10);
  const fake = (destroyed = false) => {
    const raw = Object.assign(new EventEmitter(), { destroyed });
    const reply = { raw, header: () => reply } as unknown as FastifyReply;
    const req = { raw: { socket: { destroyed } } } as unknown as FastifyRequest;
    return { req, reply, raw };
  };
  // gone while authenticated: its 'close' has fired already, so it would never have been given back
  const gone = fake(true);
  budget.take(gone.req, gone.reply, 8);
  assert.equal(budget.inUse, 0);
  // counted from the start; its response closes while its parse is still queued: still counted
  const a = fake();
  budget.take(a.req, a.reply, 8);
  budget.pin(a.req);
  assert.equal(budget.inUse, 8);
  assert.throws(() => budget.take(fake().req, fake().reply, 4), (e: ApiError) => e.httpStatus === 503);
  a.raw.emit('close');
  assert.equal(budget.inUse, 8);
  budget.unpin(a.req);
  assert.equal(budget.inUse, 0);
  // given back once only, whatever comes after
  a.raw.emit('close');
  budget.unpin(a.req);
  assert.equal(budget.inUse, 0);
  assert.throws(() => budget.take(fake().req, fake().reply, 11), (e: ApiError) => e.httpStatus === 413);
});

test('the inline-body budget: one account holds at most half of it, or one body of any size when it holds nothing else', () => {
  const budget = new ByteBudget(20);
  const fake = (accountId: string) => {
    const raw = new EventEmitter();
    const reply = { raw, header: () => reply } as unknown as FastifyReply;
    const req = { raw: { socket: { destroyed: false } }, accountId } as unknown as FastifyRequest;
    return { req, reply, raw };
  };
  const busy = (e: ApiError) => e.httpStatus === 503 && /this account's other large requests/.test(e.message);
  // a slow sender's first body: let in whole, though over half the budget
  const a1 = fake('a');
  budget.take(a1.req, a1.reply, 12);
  // its second waits, however much room is left
  const a2 = fake('a');
  assert.throws(() => budget.take(a2.req, a2.reply, 1), busy);
  // another account gets the rest
  const b1 = fake('b');
  budget.take(b1.req, b1.reply, 8);
  assert.equal(budget.inUse, 20);
  b1.raw.emit('close');
  a1.raw.emit('close');
  assert.equal(budget.inUse, 0);
  // an account takes several bodies up to half the budget, no more, though the budget has room
  const b2 = fake('b');
  const b3 = fake('b');
  budget.take(b2.req, b2.reply, 4);
  budget.take(b3.req, b3.reply, 4);
  const b4 = fake('b');
  assert.throws(() => budget.take(b4.req, b4.reply, 3), busy);
  assert.equal(budget.inUse, 8);
  // while the other account, holding nothing, takes one large body
  budget.take(a2.req, a2.reply, 12);
  assert.equal(budget.inUse, 20);
  for (const r of [a2, b2, b3]) r.raw.emit('close');
  assert.equal(budget.inUse, 0);
});
