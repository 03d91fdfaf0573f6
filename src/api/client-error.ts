// Requests Node's HTTP parser refuses before fastify sees them (a body shorter than its
// Content-Length, a broken chunk, two Content-Lengths, headers over the limit, a request that
// never finished arriving) answer in the interface's error body, URE000, like any other request
// the server cannot read; the legacy envelope when the request line names /v0.1/ or /v0.2/, or the
// connection's request being read does (its body cut short).
import type { Socket } from 'node:net';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../service/errors.js';
import { errorBody } from './errors.js';
import { legacyErrorBody } from './legacy/envelope.js';

const LEGACY_REQUEST_LINE = /^[A-Z]+ \/v0\.([12])\//i;
const LEGACY_PATH = /^\/v0\.([12])\//i;

/** The legacy version of the request each connection carries now ('1', '2'), when it is one. */
const legacyRequestOf = new WeakMap<Socket, string>();

/**
 * Notes which interface a connection's current request speaks (the server's 'request' event): a
 * body the parser then refuses (shorter than its Content-Length) is answered in that request's
 * envelope, though the refused bytes no longer hold its request line.
 */
export function noteRequest(req: IncomingMessage, res: ServerResponse): void {
  const legacy = LEGACY_PATH.exec(req.url ?? '');
  if (!legacy) return void legacyRequestOf.delete(req.socket);
  const socket = req.socket;
  legacyRequestOf.set(socket, legacy[1]!);
  // the label is this request's: the connection's next one may be refused before it is known
  res.once('finish', () => legacyRequestOf.delete(socket));
}

function refusal(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new ApiError('URE000', 'the request headers are larger than the server accepts', undefined, 431);
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError('URE000', 'the request did not arrive in time', undefined, 408);
  return new ApiError('URE000', `the request is not valid HTTP/1.1 (${code ?? 'unreadable'}): check Content-Length and Transfer-Encoding`);
}

export function clientErrorHandler(log: FastifyBaseLogger) {
  return function onClientError(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
    // a reset connection has no one to answer
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const apiErr = refusal(err.code);
    const line = Buffer.isBuffer(err.rawPacket) ? LEGACY_REQUEST_LINE.exec(err.rawPacket.toString('latin1', 0, 64)) : null;
    const legacy = line?.[1] ?? legacyRequestOf.get(socket);
    const body = JSON.stringify(legacy ? legacyErrorBody(`0.${legacy}`, apiErr) : errorBody(apiErr));
    log.debug({ err: { code: err.code, message: err.message } }, 'request refused by the HTTP parser');
    if (socket.writable) {
      const status = apiErr.httpStatus;
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
