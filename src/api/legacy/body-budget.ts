// Legacy calls carry whole workspaces inline, and such a body is held in memory whole: read as
// text, queued for one of the two parser threads (large-body.ts), copied to it. Nothing bounded how
// many waited: four 100 MB bodies at once took the process to 1.9 GB. The bytes of large bodies held
// at once now have a budget per service (STRATUM_INLINE_BODIES_MB): a request that would go past it
// is answered 503 (try again later) before its body is read, and one larger than the whole budget
// 413. A body is counted from when it is let in until its response is over and its parse, if
// queued, has ended (a client that sends its body and goes away leaves it queued).
// One account holds at most half the budget, or one body of any size when it holds nothing else:
// an account whose clients send large bodies slowly (up to the request timeout each) could
// otherwise keep every other account's large calls out.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../service/errors.js';

export class ByteBudget {
  private used = 0;
  /** bytes counted for each request, its account, and how many holders keep them (its response, its parse) */
  private readonly held = new WeakMap<FastifyRequest, { bytes: number; holders: number; account: string }>();
  /** bytes held per account (accounts holding none are not listed) */
  private readonly byAccount = new Map<string, number>();

  constructor(readonly limit: number) {}

  /** Counts `bytes` for the request until its response closes, or refuses it (ApiError 503 or 413). */
  take(req: FastifyRequest, reply: FastifyReply, bytes: number): void {
    if (this.held.has(req)) return;
    // a client gone while the request was authenticated: its 'close' has fired, nothing would give them back
    if (req.raw.socket?.destroyed ?? true) return;
    const mb = (n: number) => Math.ceil(n / 1048576);
    if (bytes > this.limit) {
      throw new ApiError('URE000', `a body of ${mb(bytes)} MB is more than this service holds in memory for inline workspaces (${mb(this.limit)} MB)`, undefined, 413);
    }
    if (this.used + bytes > this.limit) {
      reply.header('retry-after', '5');
      throw new ApiError('SF000', `the service is reading other large requests (${mb(this.used)} MB of ${mb(this.limit)} MB); try again later`, undefined, 503);
    }
    const account = req.accountId ?? '';
    const own = this.byAccount.get(account) ?? 0;
    if (own > 0 && own + bytes > this.limit / 2) {
      reply.header('retry-after', '5');
      throw new ApiError(
        'SF000',
        `this account's other large requests are being read (${mb(own)} MB; one account holds at most ${mb(this.limit / 2)} MB at once); try again later`,
        undefined,
        503,
      );
    }
    this.used += bytes;
    this.byAccount.set(account, own + bytes);
    this.held.set(req, { bytes, holders: 1, account });
    reply.raw.once('close', () => this.unpin(req));
  }

  /** The request's body is still in memory past its response (queued for a parser thread): keep counting it. */
  pin(req: FastifyRequest): void {
    const h = this.held.get(req);
    if (h) h.holders++;
  }

  /** One holder is done with the body; the last one gives its bytes back. */
  unpin(req: FastifyRequest): void {
    const h = this.held.get(req);
    if (!h || --h.holders > 0) return;
    this.held.delete(req);
    this.used -= h.bytes;
    const left = (this.byAccount.get(h.account) ?? 0) - h.bytes;
    if (left > 0) this.byAccount.set(h.account, left);
    else this.byAccount.delete(h.account);
  }

  /** Bytes counted now (for tests and metrics). */
  get inUse(): number {
    return this.used;
  }
}
