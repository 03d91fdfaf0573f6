// The legacy RPC versions' bodies (spec/deployed-examples.md): every success is
// `{apiVersion, coreVersion, realvisionHtmlVersion, result}`, every error
// `{apiVersion, statusCode, statusDescription, error: {errorCode, errorMessage, details}}`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { ENGINE_VERSION } from '../../engine/version.js';
import { ApiError } from '../../service/errors.js';
import { toApiError } from '../errors.js';

export interface LegacyEnvelope<R> {
  apiVersion: string;
  coreVersion: string;
  realvisionHtmlVersion: string;
  result: R;
}

export interface LegacyErrorBody {
  apiVersion: string;
  statusCode: number;
  statusDescription: string;
  error: { errorCode: string; errorMessage: string; details: Record<string, unknown> };
}

export function envelope<R>(apiVersion: string, result: R): LegacyEnvelope<R> {
  // the field names are the public clients' contract; there is no HTML front end, so it repeats our version
  return { apiVersion, coreVersion: ENGINE_VERSION, realvisionHtmlVersion: ENGINE_VERSION, result };
}

export function legacyErrorBody(apiVersion: string, err: ApiError): LegacyErrorBody {
  return {
    apiVersion,
    statusCode: err.httpStatus,
    statusDescription: STATUS_CODES[err.httpStatus] ?? 'Error',
    error: { errorCode: err.code, errorMessage: err.message, details: err.details ?? {} },
  };
}

/** setErrorHandler of a legacy version scope. */
export function legacyErrorHandler(apiVersion: string) {
  return function handleLegacyError(err: unknown, req: FastifyRequest, reply: FastifyReply): FastifyReply {
    const apiErr = withUnreadBodyHint(toApiError(err), req);
    if (apiErr.httpStatus >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ errorCode: apiErr.code, reason: apiErr.message }, 'request refused');
    if (apiErr.httpStatus === 413) reply.header('connection', 'close');
    return reply.code(apiErr.httpStatus).send(legacyErrorBody(apiVersion, apiErr));
  };
}

/**
 * A body of a type the scope does not read (application/octet-stream, XML…) reaches the call unread:
 * "fileid is required" for a field that is there confuses; the answer says why it was not seen.
 */
function withUnreadBodyHint(err: ApiError, req: FastifyRequest): ApiError {
  const body = req.body as { pipe?: unknown } | undefined;
  if (err.httpStatus !== 400 || !/ is required\b/.test(err.message) || typeof body?.pipe !== 'function') return err;
  const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!type) return err;
  return new ApiError(err.code, `${err.message} (the body was not read: its Content-Type ${type} is not application/json)`, err.details, err.httpStatus);
}
