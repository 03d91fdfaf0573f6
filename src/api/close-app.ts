// Closing the HTTP side of a server: requests in flight get the grace period, and nothing waits
// out a keep-alive connection or a client that stopped sending.
import type { FastifyInstance } from 'fastify';

/** How often connections are looked at while the server closes, ms. */
const SWEEP_MS = 50;

/**
 * fastify's close, which waits for the requests in flight to end, but for `graceMs` at most.
 *
 * Node's server.close() closes the keep-alive connections that are idle at that moment, but not one
 * still finishing a response (a download whose last bytes the client already has): a moment later
 * that one is idle too, and the close would then wait out its keep-alive timeout (72 s) before it
 * could end. So connections that fall idle while the server closes are closed as well.
 *
 * A request still going when the grace period ends has its connection closed: an upload from a
 * client that stalled would otherwise hold the whole shutdown for up to the request timeout (ten
 * minutes by default). The upload is then cut off, and like any cut-off upload leaves nothing behind.
 */
export async function closeApp(app: FastifyInstance, graceMs: number): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), SWEEP_MS);
  const cut = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}

/**
 * A server's whole stop within one grace period: the HTTP side first (requests in flight have the
 * period; `app` is null for a process without one), then the runtime with what is left of it (slices
 * run on while the requests finish). The embedded and the distributed server both stop this way.
 */
export async function closeWithinGrace(app: FastifyInstance | null, graceMs: number, closeRuntime: (graceMs: number) => Promise<void>): Promise<void> {
  const end = Date.now() + graceMs;
  if (app) await closeApp(app, graceMs);
  await closeRuntime(Math.max(0, end - Date.now()));
}
