// The store contract: one suite of node:test cases that every MetadataStore / JobQueue /
// TaskEventBus adapter must pass (SQLite in store-sqlite.test.ts, PostgreSQL in
// distributed/store-postgres.test.ts). No tests run from this file by itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OutputRecord, TaskRecord } from '../src/service/model.js';
import { InvalidCursorError, type JobQueue, type MetadataStore, type TaskEventBus } from '../src/service/ports.js';
import { nowIso7 } from '../src/service/dates.js';
import { hashSecret } from '../src/service/ids.js';

export interface ContractStores {
  metadata: MetadataStore;
  queue: JobQueue;
  events: TaskEventBus;
  close(): Promise<void>;
}

export interface ContractTarget {
  /** e.g. 'SQLite' */
  name: string;
  /**
   * Fresh, empty stores. `peer` opens a second handle on the same data, as another process
   * would (both adapters support it for the queue).
   */
  open(): Promise<ContractStores & { peer(): Promise<ContractStores> }>;
  /** peers see each other's task events (a bus that crosses processes) */
  eventsCrossProcesses: boolean;
}

export function contractTask(id: string, accountId: string, over: Partial<TaskRecord> = {}): TaskRecord {
  return {
    id,
    accountId,
    kind: 'stl',
    status: 'queued',
    progress: 0,
    queueDate: nowIso7(),
    startDate: null,
    endDate: null,
    files: [{ fileId: `f-${id}`, fileName: 'a.stl', type: 'STL' }],
    settings: { printerModel: 'Creality Ender 3', supportType: 'n' },
    request: { printer: 'Creality Ender 3', overrides: {} },
    info: null,
    output: null,
    error: null,
    warnings: [],
    stats: null,
    ...over,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Registers the whole contract for one adapter. */
export function storeContract(target: ContractTarget): void {
  metadataContract(target);
  queueContract(target);
  eventsContract(target);
}

function useStores(target: ContractTarget) {
  const ctx = {} as { s: ContractStores & { peer(): Promise<ContractStores> }; peers: ContractStores[] };
  before(async () => {
    ctx.s = await target.open();
    ctx.peers = [];
  });
  after(async () => {
    for (const p of ctx.peers) await p.close();
    await ctx.s.close();
  });
  return {
    get s() {
      return ctx.s;
    },
    async peer(): Promise<ContractStores> {
      const p = await ctx.s.peer();
      ctx.peers.push(p);
      return p;
    },
  };
}

function metadataContract(target: ContractTarget): void {
  describe(`${target.name} metadata store (contract)`, () => {
    const h = useStores(target);

    test('a task round-trips, and updates are compare-and-set on the status', async () => {
      const m = h.s.metadata;
      const t = contractTask('t1', 'acc-a', { warnings: ['ü ✓ "quoted"'] });
      await m.insertTask(t);
      assert.deepEqual(await m.getTask('t1'), t);
      assert.equal(await m.getTaskOf('acc-b', 't1'), null, 'another account does not see it');
      assert.deepEqual(await m.getTaskOf('acc-a', 't1'), t);
      const started = await m.updateTask('t1', ['queued'], { status: 'started', startDate: nowIso7(), progress: 0.25 });
      assert.equal(started?.status, 'started');
      assert.equal((await m.getTask('t1'))?.progress, 0.25);
      // a finish arriving for a task that is no longer queued/started is refused
      assert.equal(await m.updateTask('t1', ['queued'], { status: 'finished' }), null);
      await m.updateTask('t1', ['started'], { status: 'cancelled' });
      assert.equal(await m.updateTask('t1', ['started', 'running'], { status: 'finished', progress: 1 }), null);
      // the fixed fields never change, whatever the patch says
      await m.updateTask('t1', ['cancelled'], { id: 'other', accountId: 'acc-z', kind: 'ws', queueDate: '2000-01-01T00:00:00.0000000Z' });
      const final = await m.getTask('t1');
      assert.equal(final?.status, 'cancelled');
      assert.equal(final?.accountId, 'acc-a');
      assert.equal(final?.kind, 'stl');
      assert.equal(final?.queueDate, t.queueDate, 'queue date never changes');
      assert.equal(await m.updateTask('missing', ['queued'], { status: 'started' }), null);
    });

    test('concurrent compare-and-set: exactly one of many racing updates wins', async () => {
      const m = h.s.metadata;
      await m.insertTask(contractTask('race', 'acc-race'));
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => m.updateTask('race', ['queued'], { status: 'started', progress: i / 10 })),
      );
      const winners = results.filter((r) => r !== null);
      assert.equal(winners.length, 1);
      assert.equal((await m.getTask('race'))?.progress, winners[0]!.progress);
    });

    test('tasks list newest first, per account and kind, in pages', async () => {
      const m = h.s.metadata;
      for (let i = 0; i < 5; i++) {
        await m.insertTask(contractTask(`p${i}`, 'acc-page'));
        await sleep(2); // distinct queue dates
      }
      await m.insertTask(contractTask('other-kind', 'acc-page', { kind: 'ws' }));
      await m.insertTask(contractTask('other-acc', 'acc-x'));
      const first = await m.listTasks('acc-page', 'stl', 2, null);
      assert.deepEqual(first.tasks.map((t) => t.id), ['p4', 'p3']);
      assert.ok(first.nextCursor);
      const second = await m.listTasks('acc-page', 'stl', 2, first.nextCursor);
      assert.deepEqual(second.tasks.map((t) => t.id), ['p2', 'p1']);
      const third = await m.listTasks('acc-page', 'stl', 2, second.nextCursor);
      assert.deepEqual(third.tasks.map((t) => t.id), ['p0']);
      assert.equal(third.nextCursor, null);
      assert.deepEqual((await m.listTasks('acc-page', 'ws', 10, null)).tasks.map((t) => t.id), ['other-kind']);
      await assert.rejects(m.listTasks('acc-page', 'stl', 2, 'not-a-cursor'), InvalidCursorError);
    });

    test('tasks queued at the same instant page by id without gaps or repeats', async () => {
      const m = h.s.metadata;
      const queueDate = nowIso7();
      const ids = ['s-a', 's-B', 's-b', 's-c', 's-d'];
      for (const id of ids) await m.insertTask(contractTask(id, 'acc-same', { queueDate }));
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await m.listTasks('acc-same', 'stl', 2, cursor);
        seen.push(...page.tasks.map((t) => t.id));
        cursor = page.nextCursor;
      } while (cursor);
      // bytewise order, newest (largest id) first: 'B' sorts before 'a'
      assert.deepEqual(seen, ['s-d', 's-c', 's-b', 's-a', 's-B']);
    });

    test('status queries, counts and deletion of tasks', async () => {
      const m = h.s.metadata;
      await m.insertTask(contractTask('st-1', 'acc-st', { status: 'running' }));
      await sleep(2);
      await m.insertTask(contractTask('st-2', 'acc-st', { status: 'running' }));
      const before = await m.countTasksByStatus();
      assert.ok((await m.listTaskIdsByStatus('running')).join() === 'st-1,st-2', 'running ids, oldest first');
      await m.deleteTask('st-1');
      assert.equal(await m.getTask('st-1'), null);
      assert.deepEqual(await m.listTaskIdsByStatus('running'), ['st-2']);
      const afterCounts = await m.countTasksByStatus();
      assert.equal(afterCounts.running, before.running - 1);
      assert.equal(typeof afterCounts.failed, 'number', 'every status has a count');
    });

    test('expired files exclude those an unfinished task still needs; files belong to their account', async () => {
      const m = h.s.metadata;
      const old = Date.now() - 10 * 86_400_000;
      for (const id of ['old-free', 'old-used', 'new']) {
        await m.insertFile({ id, accountId: 'acc-f', fileName: `${id}.stl`, type: 'STL', size: 3_000_000_000, blobKey: `files/${id}`, createdAt: id === 'new' ? Date.now() : old });
      }
      await m.insertTask(contractTask('uses-old', 'acc-f', { files: [{ fileId: 'old-used', fileName: 'x', type: 'STL' }] }));
      const cutoff = Date.now() - 7 * 86_400_000;
      assert.deepEqual((await m.listExpiredFiles(cutoff, 100)).map((f) => f.id), ['old-free']);
      await m.updateTask('uses-old', ['queued'], { status: 'finished' });
      assert.deepEqual((await m.listExpiredFiles(cutoff, 100)).map((f) => f.id).sort(), ['old-free', 'old-used']);
      assert.equal((await m.listExpiredFiles(cutoff, 1)).length, 1, 'the limit holds');
      const f = await m.getFile('acc-f', 'new');
      assert.equal(f?.size, 3_000_000_000, 'sizes above 2^31 survive');
      assert.equal(typeof f?.createdAt, 'number');
      assert.equal(await m.getFile('acc-other', 'new'), null);
      assert.equal(await m.deleteFile('acc-other', 'new'), null, 'another account cannot delete it');
      assert.equal((await m.deleteFile('acc-f', 'new'))?.blobKey, 'files/new');
      assert.equal(await m.getFile('acc-f', 'new'), null);
      await m.deleteFileRecord('old-free');
      assert.equal(await m.getFile('acc-f', 'old-free'), null);
    });

    test('keys are found by hash while active; revoking also ends their tokens', async () => {
      const m = h.s.metadata;
      await m.insertAccount({ id: 'acc-k', name: 'k', createdAt: 1 });
      await m.insertAccount({ id: 'k', name: 'named-like-an-id', createdAt: 2 });
      const activeBefore = await m.countActiveKeys();
      await m.insertApiKey({ id: 'key_1', accountId: 'acc-k', name: 'k', keyHash: hashSecret('secret'), createdAt: 1, revokedAt: null });
      await m.insertApiKey({ id: 'key_0', accountId: 'acc-k', name: 'k0', keyHash: hashSecret('other'), createdAt: 1, revokedAt: null });
      assert.equal(await m.countActiveKeys(), activeBefore + 2);
      assert.deepEqual((await m.listApiKeys()).filter((k) => k.accountId === 'acc-k').map((k) => k.id), ['key_0', 'key_1']);
      assert.equal((await m.findActiveKeyByHash(hashSecret('secret')))?.id, 'key_1');
      await m.insertAccessToken({ tokenHash: 'tok', accountId: 'acc-k', keyId: 'key_1', expiresAt: Date.now() + 60_000 });
      await m.insertAccessToken({ tokenHash: 'old', accountId: 'acc-k', keyId: 'key_1', expiresAt: Date.now() - 1 });
      assert.deepEqual(await m.findAccessToken('tok', Date.now()), { tokenHash: 'tok', accountId: 'acc-k', keyId: 'key_1', expiresAt: (await m.findAccessToken('tok', Date.now()))!.expiresAt });
      assert.equal(await m.findAccessToken('old', Date.now()), null, 'expired token');
      assert.equal(await m.deleteExpiredTokens(Date.now()), 1);
      assert.equal(await m.revokeApiKey('key_1', Date.now()), true);
      assert.equal(await m.revokeApiKey('key_1', Date.now()), false, 'already revoked');
      assert.equal(await m.countActiveKeys(), activeBefore + 1);
      assert.equal(await m.findActiveKeyByHash(hashSecret('secret')), null);
      assert.equal(await m.findAccessToken('tok', Date.now()), null);
      assert.equal((await m.findAccount('k'))?.id, 'k', 'an id match comes before a name match');
      assert.equal((await m.findAccount('named-like-an-id'))?.id, 'k', 'accounts are found by name too');
      assert.equal(await m.findAccount('nobody'), null);
    });

    test('outputs: by account, by task, expiry and deletion', async () => {
      const m = h.s.metadata;
      const out = (id: string, createdAt: number): OutputRecord => ({ id, accountId: 'acc-o', taskId: `task-${id}`, outputName: `${id}.gcode`, format: 'GCODE', size: 1234, blobKey: `outputs/${id}`, createdAt });
      await m.insertOutput(out('o-old', Date.now() - 10 * 86_400_000));
      await m.insertOutput(out('o-new', Date.now()));
      assert.deepEqual(await m.getOutput('acc-o', 'o-new'), out('o-new', (await m.getOutput('acc-o', 'o-new'))!.createdAt));
      assert.equal(await m.getOutput('acc-x', 'o-new'), null);
      assert.equal((await m.getOutputOfTask('task-o-old'))?.id, 'o-old');
      assert.deepEqual((await m.listExpiredOutputs(Date.now() - 86_400_000, 10)).map((o) => o.id), ['o-old']);
      await m.deleteOutput('o-old');
      assert.equal(await m.getOutputOfTask('task-o-old'), null);
      await m.ping();
    });

    test('knownBlobKeys names the blob keys a file or an output record holds, of any account', async () => {
      const m = h.s.metadata;
      await m.insertFile({ id: 'kb-f', accountId: 'acc-k1', fileName: 'a.stl', type: 'STL', size: 1, blobKey: 'files/kb-f', createdAt: Date.now() });
      await m.insertOutput({ id: 'kb-o', accountId: 'acc-k2', taskId: 'task-kb', outputName: 'a.gcode', format: 'GCODE', size: 1, blobKey: 'outputs/kb-o', createdAt: Date.now() });
      const known = await m.knownBlobKeys(['files/kb-f', 'outputs/kb-o', 'files/nobody', "outputs/x' OR '1'='1", 'files/kb-o']);
      assert.deepEqual([...known].sort(), ['files/kb-f', 'outputs/kb-o']);
      assert.deepEqual([...(await m.knownBlobKeys([]))], []);
    });

    test('one-time download claims: one holder at a time, taken over after expiry, free after release', async () => {
      const m = h.s.metadata;
      const t = 1_000_000;
      // two simultaneous first downloads: exactly one claim takes
      const both = await Promise.all([m.claimDownload('o-dl', t, t + 600), m.claimDownload('o-dl', t, t + 600)]);
      assert.deepEqual(both.sort(), [false, true]);
      assert.equal(await m.claimDownload('o-dl', t + 599, t + 1200), false, 'held until its end');
      assert.equal(await m.claimDownload('o-dl', t + 600, t + 1200), true, 'an expired claim is taken over');
      assert.equal(await m.claimDownload('o-other', t, t + 600), true, 'claims are per output');
      await m.releaseDownload('o-dl');
      assert.equal(await m.claimDownload('o-dl', t + 601, t + 1200), true, 'free again once released');
      await m.releaseDownload('nothing-here'); // no error
    });
  });
}

function queueContract(target: ContractTarget): void {
  describe(`${target.name} job queue (contract)`, () => {
    const h = useStores(target);

    test('claims are first in, first out, one owner each, counting attempts', async () => {
      const q = h.s.queue;
      await q.enqueue('a');
      await q.enqueue('b');
      await q.enqueue('a'); // twice is once
      assert.equal(await q.depth(), 2);
      assert.deepEqual(await q.claim('w1', 10_000), { taskId: 'a', attempts: 1 });
      assert.deepEqual(await q.claim('w2', 10_000), { taskId: 'b', attempts: 1 });
      assert.equal(await q.claim('w1', 10_000), null);
      assert.equal(await q.depth(), 0, 'leased jobs are not waiting');
      assert.equal(await q.has('a'), true, 'but they are in the queue');
      await q.enqueue('a'); // a leased job is not queued again
      assert.equal(await q.claim('w3', 10_000), null);
      assert.equal(await q.heartbeat('a', 'w1', 10_000), true);
      assert.equal(await q.heartbeat('a', 'w2', 10_000), false, 'not the owner');
      await q.retry('a', 'w2'); // not the owner: no effect
      assert.equal(await q.claim('w3', 10_000), null);
      await q.retry('a', 'w1');
      assert.deepEqual(await q.claim('w1', 10_000), { taskId: 'a', attempts: 2 }, 'a retry counts');
      await q.release('a', 'w1');
      assert.deepEqual(await q.claim('w1', 10_000), { taskId: 'a', attempts: 2 }, 'a release does not');
      await q.complete('a', 'w2'); // not the owner
      assert.equal(await q.has('a'), true);
      await q.complete('a', 'w1');
      await q.complete('b', 'w2');
      assert.equal(await q.has('a'), false);
      assert.equal(await q.depth(), 0);
    });

    test('expired leases go back to the front of the queue until attempts run out', async () => {
      const q = h.s.queue;
      await q.enqueue('x');
      await q.enqueue('y');
      assert.deepEqual(await q.claim('dead', 1), { taskId: 'x', attempts: 1 }); // expires at once
      await sleep(5);
      let r = await q.recoverExpired(Date.now(), 2);
      assert.deepEqual(r, { requeued: ['x'], exhausted: [] });
      assert.deepEqual(await q.claim('dead', 1), { taskId: 'x', attempts: 2 }, 'x is first again, before y');
      await sleep(5);
      r = await q.recoverExpired(Date.now(), 2);
      assert.deepEqual(r, { requeued: [], exhausted: ['x'] });
      assert.equal(await q.has('x'), false);
      assert.deepEqual(await q.recoverExpired(Date.now(), 2), { requeued: [], exhausted: [] }, 'a live lease stays');
      assert.deepEqual(await q.claim('w', 60_000), { taskId: 'y', attempts: 1 });
      assert.deepEqual(await q.recoverExpired(Date.now(), 2), { requeued: [], exhausted: [] }, 'a live lease stays');
      await q.remove('y');
      assert.equal(await q.depth(), 0);
    });

    test("a dead owner's late heartbeat, retry, release and complete change nothing", async () => {
      const q = h.s.queue;
      await q.enqueue('late');
      await q.claim('old', 1);
      await sleep(5);
      await q.recoverExpired(Date.now(), 5);
      assert.deepEqual(await q.claim('new', 60_000), { taskId: 'late', attempts: 2 });
      assert.equal(await q.heartbeat('late', 'old', 60_000), false);
      await q.complete('late', 'old');
      await q.retry('late', 'old');
      await q.release('late', 'old');
      assert.equal(await q.has('late'), true);
      assert.equal(await q.depth(), 0, 'still leased, by the new owner');
      assert.equal(await q.heartbeat('late', 'new', 60_000), true);
      await q.complete('late', 'new');
      assert.equal(await q.has('late'), false);
    });

    test('remove drops waiting and leased jobs; a removed task can be queued again', async () => {
      const q = h.s.queue;
      await q.enqueue('r1');
      await q.enqueue('r2');
      await q.claim('w', 60_000); // r1
      await q.remove('r1');
      await q.remove('r2');
      await q.remove('never-there');
      assert.equal(await q.has('r1'), false);
      assert.equal(await q.heartbeat('r1', 'w', 60_000), false, 'the lease went with it');
      assert.equal(await q.claim('w', 60_000), null);
      await q.enqueue('r2');
      assert.deepEqual(await q.claim('w', 60_000), { taskId: 'r2', attempts: 1 }, 'counting starts again');
      await q.complete('r2', 'w');
    });

    test("the line is fair between accounts: one account's many tasks do not hold up another's", async () => {
      const q = h.s.queue;
      const queue = async (id: string, account: string) => {
        await h.s.metadata.insertTask(contractTask(id, account));
        await q.enqueue(id);
      };
      const claimed = async (n: number) => {
        const ids: string[] = [];
        for (let i = 0; i < n; i++) {
          const c = await q.claim('w', 60_000);
          assert.ok(c, `claim ${i + 1} of ${n}`);
          ids.push(c.taskId);
          await q.complete(c.taskId, 'w');
        }
        return ids;
      };
      // one account queues five tasks, then another two: they alternate, each account in its own order
      for (let i = 0; i < 5; i++) await queue(`flood-${i}`, 'acc-flood');
      for (let i = 0; i < 2; i++) await queue(`other-${i}`, 'acc-other');
      assert.deepEqual(await claimed(3), ['flood-0', 'other-0', 'flood-1']);
      // an account that queued nothing so far starts now: after the turn in progress, not at the back
      await queue('late-0', 'acc-late');
      assert.deepEqual(await claimed(5), ['other-1', 'late-0', 'flood-2', 'flood-3', 'flood-4']);
      // an account idle for a while has no credit saved up: its tasks alternate with the others' from
      // now on (the first goes next, as the other account's last was just served)
      for (let i = 5; i < 8; i++) await queue(`flood-${i}`, 'acc-flood');
      for (let i = 2; i < 5; i++) await queue(`other-${i}`, 'acc-other');
      assert.deepEqual(await claimed(6), ['other-2', 'flood-5', 'other-3', 'flood-6', 'other-4', 'flood-7']);
      assert.equal(await q.depth(), 0);

      // an account that cancels what it queued gets those turns back: its next task is not queued
      // behind the slots of tasks that will never run
      for (let i = 0; i < 5; i++) await queue(`gone-${i}`, 'acc-cancels');
      for (let i = 0; i < 5; i++) await q.remove(`gone-${i}`);
      for (let i = 5; i < 9; i++) await queue(`other-${i}`, 'acc-other');
      await queue('gone-5', 'acc-cancels');
      assert.deepEqual(await claimed(3), ['other-5', 'gone-5', 'other-6']);
      assert.deepEqual(await claimed(2), ['other-7', 'other-8']);
      assert.equal(await q.depth(), 0);
    });

    test('many claimers on two handles never get the same job', async () => {
      const q = h.s.queue;
      const peer = await h.peer();
      const ids = Array.from({ length: 12 }, (_, i) => `many-${i}`);
      for (const id of ids) await q.enqueue(id);
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? peer.queue : q).claim(`c${i}`, 60_000)),
      );
      const got = claims.filter((c) => c !== null).map((c) => c!.taskId);
      assert.equal(got.length, ids.length);
      assert.deepEqual([...got].sort(), [...ids].sort());
      for (const id of ids) await q.remove(id);
    });

    test('recovery from two handles at once recovers each expired lease once', async () => {
      const q = h.s.queue;
      const peer = await h.peer();
      const ids = ['rec-0', 'rec-1', 'rec-2', 'rec-3'];
      for (const id of ids) await q.enqueue(id);
      for (const _ of ids) await q.claim('gone', 1);
      await sleep(5);
      const [a, b] = await Promise.all([q.recoverExpired(Date.now(), 3), peer.queue.recoverExpired(Date.now(), 3)]);
      assert.deepEqual([...a.requeued, ...b.requeued].sort(), ids);
      assert.equal(await q.depth(), ids.length);
      for (const id of ids) await q.remove(id);
    });
  });
}

function eventsContract(target: ContractTarget): void {
  describe(`${target.name} task events (contract)`, () => {
    const h = useStores(target);

    test('subscribers of a task and of all tasks get its changes until they unsubscribe', async () => {
      const bus = h.s.events;
      const mine: string[] = [];
      const all: string[] = [];
      const off = bus.subscribe('e1', (t) => mine.push(`${t.id}:${t.status}`));
      const offAll = bus.subscribeAll((t) => all.push(`${t.id}:${t.status}`));
      bus.subscribe('e1', () => {
        throw new Error('a broken listener');
      });
      bus.publish(contractTask('e1', 'acc-e', { status: 'running' }));
      bus.publish(contractTask('e2', 'acc-e', { status: 'running' }));
      off();
      bus.publish(contractTask('e1', 'acc-e', { status: 'finished' }));
      offAll();
      bus.publish(contractTask('e2', 'acc-e', { status: 'finished' }));
      assert.deepEqual(mine, ['e1:running'], 'synchronous in the publishing process');
      assert.deepEqual(all, ['e1:running', 'e2:running', 'e1:finished']);
    });

    if (!target.eventsCrossProcesses) return;

    test('another process gets the changes, in order, also of records too big for one notification', async () => {
      const peer = await h.peer();
      const got: string[] = [];
      const done = new Promise<void>((resolve) => {
        peer.events.subscribe('x1', (t) => {
          got.push(`${t.status}:${t.progress}:${t.warnings.length}`);
          if (t.status === 'finished') resolve();
        });
      });
      const big = Array.from({ length: 200 }, (_, i) => `warning number ${i} `.repeat(4));
      const t = contractTask('x1', 'acc-x', { status: 'running' });
      await h.s.metadata.insertTask({ ...t, status: 'finished', progress: 1, warnings: big });
      for (let i = 1; i <= 5; i++) h.s.events.publish({ ...t, progress: i / 10 });
      // too big to travel inline: the receiver reads it back from the store
      h.s.events.publish({ ...t, status: 'finished', progress: 1, warnings: big });
      await Promise.race([done, sleep(5000).then(() => assert.fail(`timed out; got ${got.join(' ')}`))]);
      assert.deepEqual(got, ['running:0.1:0', 'running:0.2:0', 'running:0.3:0', 'running:0.4:0', 'running:0.5:0', 'finished:1:200']);
    });
  });
}
