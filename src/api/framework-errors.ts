// What fastify refuses before any route is found (a path parameter over maxParamLength, a path that
// is not valid percent-encoded UTF-8) answers in the body of the version the path names, with the
// code its route would have given: file names URE000, task ids URE005, output and file ids URE006.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, badRequest, fileNotFound } from '../service/errors.js';
import { errorBody, toApiError } from './errors.js';
import { legacyErrorBody } from './legacy/envelope.js';

const LEGACY = /^\/v0\.([12])\//i;
const UPLOAD = /^\/(?:v1|v0\.3)\/upload\//;
const TASK = /^\/(?:v1|v0\.3)\/(?:ws|stl)\/tasks\//;
const STORED = /^\/(?:v1|v0\.3)\/(output|files)\//;

function refusal(err: FastifyError, path: string, maxParamLength: number): ApiError {
  let reason: string;
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') reason = `is over ${maxParamLength} characters long`;
  else if (err.code === 'FST_ERR_BAD_URL') reason = 'is not valid percent-encoded UTF-8';
  else return toApiError(err);
  if (UPLOAD.test(path)) return badRequest(`the file type or name ${reason} (a file name is at most 255 bytes of UTF-8)`);
  if (TASK.test(path)) return new ApiError('URE005', `the task id ${reason}`, undefined, 400);
  const stored = STORED.exec(path);
  if (stored) return fileNotFound(`no such ${stored[1] === 'output' ? 'output' : 'file'}: the id ${reason}`);
  return badRequest(`the path ${reason}`);
}

/**
 * The `frameworkErrors` option of the server. Route hooks (the server's onResponse log line and
 * request metrics among them) do not run for these requests: `answered` is called instead.
 */
export function frameworkErrorHandler(maxParamLength: number, answered: (req: FastifyRequest, reply: FastifyReply) => void) {
  return function handleFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
    const path = req.url.split('?')[0]!;
    const apiErr = refusal(err, path, maxParamLength);
    if (apiErr.httpStatus >= 500) req.log.error({ err, url: path.slice(0, 200) }, 'request failed');
    else req.log.info({ errorCode: apiErr.code, reason: apiErr.message, url: path.slice(0, 200) }, 'request refused');
    const legacy = LEGACY.exec(path);
    reply.header('x-request-id', req.id);
    void reply.code(apiErr.httpStatus).send(legacy ? legacyErrorBody(`0.${legacy[1]}`, apiErr) : errorBody(apiErr));
    answered(req, reply);
  };
}
