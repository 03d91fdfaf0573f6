// Closing the HTTP side of a server without waiting out keep-alive connections.
import type { FastifyInstance } from 'fastify';

/** How often connections are looked at while the server closes, ms. */
const SWEEP_MS = 50;

/**
 * fastify's close, which waits for the requests in flight to end. Node's server.close() closes the
 * keep-alive connections that are idle at that moment, but not one still finishing a response (a
 * download whose last bytes the client already has): a moment later that one is idle too, and the
 * close would then wait out its keep-alive timeout (72 s) before it could end. So connections that
 * fall idle while the server closes are closed as well.
 */
export async function closeApp(app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}
