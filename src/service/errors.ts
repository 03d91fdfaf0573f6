// The interface's error codes and the HTTP status each one answers with (DESIGN.md, "Errors").
// Service code throws ApiError; each API version renders it in its own body shape.

export type ErrorCode =
  | 'URE000'
  | 'URE001'
  | 'URE002'
  | 'URE003'
  | 'URE004'
  | 'URE005'
  | 'URE006'
  | 'URE007'
  | 'SF000';

const DEFAULT_STATUS: Record<ErrorCode, number> = {
  URE000: 400,
  URE001: 400,
  URE002: 400,
  URE003: 404,
  URE004: 400,
  URE005: 404,
  URE006: 404,
  URE007: 400,
  SF000: 500,
};

export class ApiError extends Error {
  readonly httpStatus: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    httpStatus?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.httpStatus = httpStatus ?? DEFAULT_STATUS[code];
  }
}

/** URE000: the request is missing something or is malformed. */
export function badRequest(message: string, details?: Record<string, unknown>): ApiError {
  return new ApiError('URE000', message, details);
}

/** Upload over the size limit: 413 with the interface's error body. */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError('URE000', `the upload exceeds the limit of ${limit} bytes`, { limitBytes: limit }, 413);
}

/** URE005 as 400: the task id is not even shaped like one. */
export function malformedTaskId(taskId: string): ApiError {
  return new ApiError('URE005', `'${truncate(taskId)}' is not a valid task id`, undefined, 400);
}

/** URE005 as 404: no such task visible to the caller. */
export function taskNotFound(taskId: string): ApiError {
  return new ApiError('URE005', `no task ${truncate(taskId)}`, undefined, 404);
}

export function fileNotFound(message: string): ApiError {
  return new ApiError('URE006', message);
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}
