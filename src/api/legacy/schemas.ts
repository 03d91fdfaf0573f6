// OpenAPI/serialisation schemas of the legacy RPC routes (inline: two versions share them).
import { V1_SECURITY } from '../schemas.js';

const errorBody = {
  type: 'object',
  description: 'legacy error envelope',
  properties: {
    apiVersion: { type: 'string' },
    statusCode: { type: 'integer' },
    statusDescription: { type: 'string' },
    error: {
      type: 'object',
      properties: {
        errorCode: { type: 'string' },
        errorMessage: { type: 'string' },
        details: { type: 'object', additionalProperties: true },
      },
      required: ['errorCode', 'errorMessage', 'details'],
    },
  },
  required: ['apiVersion', 'statusCode', 'statusDescription', 'error'],
} as const;

const gatewayBody = {
  type: 'object',
  description: 'authentication failure, in the gateway shape',
  properties: { statusCode: { type: 'integer' }, message: { type: 'string' } },
  required: ['statusCode', 'message'],
} as const;

/** A call's result: its fields, and those every answer has (what a generated client may rely on). */
export interface ResultSchema {
  properties: Record<string, unknown>;
  required: string[];
}

export function envelopeOf(result: ResultSchema) {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      coreVersion: { type: 'string' },
      realvisionHtmlVersion: { type: 'string' },
      result: { type: 'object', additionalProperties: true, properties: result.properties, required: result.required },
    },
    required: ['apiVersion', 'coreVersion', 'realvisionHtmlVersion', 'result'],
  };
}

const str = { type: 'string' } as const;

/** Every field of these results is always there, but a failed task's `error`. */
const allOf = (properties: Record<string, unknown>): ResultSchema => ({ properties, required: Object.keys(properties) });

export const RESULTS = {
  activation: allOf({ activated: { ...str, description: '"true" (a string: clients compare it with "true")' } }),
  upload: allOf({ fileid: str, fileId: str, filename: str, fileName: str }),
  start: allOf({ taskid: str, taskId: str }),
  progress: {
    properties: {
      progress: { ...str, description: 'a number as a string: "0.42"; "1" when finished; "-1" when failed or cancelled' },
      status: str,
      error: {
        type: 'object',
        description: 'when failed: errorCode (SF000) and what went wrong, as errorMessage (the legacy envelope\'s name) and message (v1\'s)',
        properties: { errorCode: str, errorMessage: str, message: str },
        required: ['errorCode', 'errorMessage', 'message'],
        additionalProperties: true,
      },
    },
    required: ['progress', 'status'],
  },
  information: allOf({ time: { ...str, description: 'h:mm:ss' }, length: { ...str, description: 'e.g. 3.58meters' }, weight: { ...str, description: 'e.g. 10.69grams' } }),
  cancel: allOf({ taskid: str, taskId: str, status: str }),
} satisfies Record<string, ResultSchema>;

/** A JSON body (any key casing) documented by its fields. */
export function jsonBody(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', additionalProperties: true, properties, ...(required.length ? { required } : {}) };
}

export const TASK_ID_BODY = jsonBody({
  taskid: { type: 'string', description: 'the task id (any casing: taskId, TaskId; early clients: uniqueID)' },
});

export const TASK_ID_QUERY = {
  type: 'object',
  additionalProperties: true,
  properties: { taskid: { type: 'string', description: 'the task id (any casing: taskId)' } },
} as const;

export function legacyRoute(tag: string, summary: string, result: ResultSchema, extra: Record<string, unknown> = {}) {
  return {
    summary,
    tags: [tag],
    security: V1_SECURITY,
    // 413: a body over its limit; 415: a compressed body; 431: headers too large; 503: a store the call needs is down
    response: { 200: envelopeOf(result), 400: errorBody, 401: gatewayBody, 404: errorBody, 413: errorBody, 415: errorBody, 431: errorBody, 500: errorBody, 503: errorBody },
    ...extra,
  };
}
