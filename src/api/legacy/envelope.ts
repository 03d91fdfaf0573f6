// The legacy RPC versions' bodies (spec/deployed-examples.md): every success is
// `{apiVersion, coreVersion, realvisionHtmlVersion, result}`, every error
// `{apiVersion, statusCode, statusDescription, error: {errorCode, errorMessage, details}}`.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { ENGINE_VERSION } from '../../engine/version.js';
import type { ApiError } from '../../service/errors.js';
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
    const apiErr = toApiError(err);
    if (apiErr.httpStatus >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ errorCode: apiErr.code, reason: apiErr.message }, 'request refused');
    if (apiErr.httpStatus === 413) reply.header('connection', 'close');
    return reply.code(apiErr.httpStatus).send(legacyErrorBody(apiVersion, apiErr));
  };
}
