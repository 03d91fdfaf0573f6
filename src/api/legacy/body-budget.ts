// Legacy calls carry whole workspaces inline, and such a body is held in memory whole: read as
// text, queued for one of the two parser threads (large-body.ts), copied to it. Nothing bounded how
// many waited: four 100 MB bodies at once took the process to 1.9 GB. The bytes of large bodies held
// at once now have a budget per service (STRATUM_INLINE_BODIES_MB): a request that would go past it
// is answered 503 (try again later) before its body is read, and one larger than the whole budget
// 413. A body is counted from when it is let in until its response is over.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../service/errors.js';

export class ByteBudget {
  private used = 0;
  private readonly held = new WeakMap<FastifyRequest, number>();

  constructor(readonly limit: number) {}

  /** Counts `bytes` for the request until its response closes, or refuses it (ApiError 503 or 413). */
  take(req: FastifyRequest, reply: FastifyReply, bytes: number): void {
    if (this.held.has(req)) return;
    const mb = (n: number) => Math.ceil(n / 1048576);
    if (bytes > this.limit) {
      throw new ApiError('URE000', `a body of ${mb(bytes)} MB is more than this service holds in memory for inline workspaces (${mb(this.limit)} MB)`, undefined, 413);
    }
    if (this.used + bytes > this.limit) {
      reply.header('retry-after', '5');
      throw new ApiError('SF000', `the service is reading other large requests (${mb(this.used)} MB of ${mb(this.limit)} MB); try again later`, undefined, 503);
    }
    this.used += bytes;
    this.held.set(req, bytes);
    reply.raw.once('close', () => this.give(req));
  }

  private give(req: FastifyRequest): void {
    const bytes = this.held.get(req);
    if (bytes === undefined) return;
    this.held.delete(req);
    this.used -= bytes;
  }

  /** Bytes counted now (for tests and metrics). */
  get inUse(): number {
    return this.used;
  }
}
