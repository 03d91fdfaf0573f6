// Whether a response's client took its whole body. A response's 'finish' means its last byte went
// to the kernel, whose send buffer holds megabytes: a client that broke off a file of a few MiB
// part-way is seen only after 'finish', when its reset arrives. So the socket is watched a little
// longer: a reset (an error, or a close with one) says the tail was not read; the client's next
// request on the connection, its clean end of it (a FIN: it read to the end and hung up) or a quiet
// window say it was.
// A response on a `Connection: close` request leaves nothing to watch (Node closes the socket at once
// and the kernel sends the tail alone): there 'finish' is all there is.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a kept-alive connection is watched for a reset after the last byte went to the kernel. */
export const DELIVERY_QUIET_MS = 10_000;

/** the connections with a response being watched, and what settles each */
const watched = new WeakMap<Socket, (whole: boolean) => void>();
const hooked = new WeakSet<Server>();

export function deliveredWhole(socket: Socket | null, server: Server, quietMs = DELIVERY_QUIET_MS): Promise<boolean> {
  if (!hooked.has(server)) {
    hooked.add(server);
    // a client asks again on a connection only once it has read the answer before
    server.on('request', (req) => watched.get(req.socket)?.(true));
  }
  return new Promise((resolve) => {
    if (!socket || socket.destroyed) return resolve(!socket?.errored);
    const settle = (whole: boolean) => {
      clearTimeout(timer);
      watched.delete(socket);
      socket.off('error', onError);
      socket.off('close', onClose);
      socket.off('end', onEnd);
      resolve(whole);
    };
    const onError = () => settle(false);
    const onClose = (hadError: boolean) => settle(!hadError);
    const onEnd = () => settle(true);
    socket.once('error', onError);
    socket.once('close', onClose);
    socket.once('end', onEnd);
    watched.set(socket, settle);
    const timer = setTimeout(() => settle(true), quietMs);
    timer.unref();
  });
}
