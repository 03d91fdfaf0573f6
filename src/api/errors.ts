// Turning whatever went wrong into the interface's error body: ApiError as it is, request
// validation as URE000, body size as 413, a store down as 503, anything unexpected as SF000
// (logged, never with a stack).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from '../service/errors.js';
import { BlobStoreUnavailableError, MetadataStoreUnavailableError } from '../service/ports.js';

export interface ApiErrorBody {
  errorCode: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // the object store is down or refused: the service's fault, and worth a retry (the cause is logged)
  if (err instanceof BlobStoreUnavailableError) return new ApiError('SF000', 'the file store is unavailable; try again later', undefined, 503);
  if (err instanceof MetadataStoreUnavailableError || isSqliteUnavailable(err)) return new ApiError('SF000', 'the database is unavailable; try again later', undefined, 503);
  const e = err as FastifyError & { validation?: unknown };
  if (e?.validation) return new ApiError('URE000', e.message);
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('URE000', 'the request body is too large', undefined, 413);
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('URE000', `the request body is not valid JSON: ${e.message}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new ApiError('URE000', 'unsupported Content-Type: send application/json', undefined, 415);
  }
  if (e instanceof SyntaxError) return new ApiError('URE000', `the request body is not valid JSON: ${e.message}`);
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiError('URE000', e.message, undefined, e.statusCode);
  }
  return new ApiError('SF000', 'internal error; try again later', undefined, 500);
}

/**
 * SQLite (the embedded store) refusing for a while, not for the request: locked past its busy
 * timeout, the disk full or failing, the file read-only or gone. Worth a retry, as PostgreSQL down is.
 */
function isSqliteUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|PROTOCOL)/.test(code);
}

export function errorBody(err: ApiError): ApiErrorBody {
  const body: ApiErrorBody = { errorCode: err.code, message: err.message };
  if (err.details && Object.keys(err.details).length) body.details = err.details;
  return body;
}

/** setErrorHandler for a version scope whose errors use the interface's body. */
export function interfaceErrorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiErr = toApiError(err);
  if (apiErr.httpStatus >= 500) req.log.error({ err }, 'request failed');
  else req.log.info({ errorCode: apiErr.code, reason: apiErr.message }, 'request refused');
  // a refused upload may leave an unread body behind: do not reuse the connection
  if (apiErr.httpStatus === 413) reply.header('connection', 'close');
  return reply.code(apiErr.httpStatus).send(errorBody(apiErr));
}

/** Unknown routes: JSON 404 in the gateway's shape. */
export function notFoundHandler(_req: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send({ statusCode: 404, message: 'Resource not found' });
}
