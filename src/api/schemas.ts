// JSON schemas shared by the routes: they validate requests, serialise responses and become the
// OpenAPI document (@fastify/swagger), so the three never disagree.

export const apiErrorSchema = {
  $id: 'ApiError',
  type: 'object',
  description: 'An error of the interface: an error code, a message for people, optional details.',
  required: ['errorCode', 'message'],
  properties: {
    errorCode: { type: 'string', enum: ['URE000', 'URE001', 'URE002', 'URE003', 'URE004', 'URE005', 'URE006', 'URE007', 'SF000'] },
    message: { type: 'string' },
    details: { type: 'object', additionalProperties: true },
  },
} as const;

export const gatewayErrorSchema = {
  $id: 'GatewayError',
  type: 'object',
  description: 'Authentication failures and unknown routes, in the shape the hosted gateway answered.',
  required: ['statusCode', 'message'],
  properties: {
    statusCode: { type: 'integer' },
    message: { type: 'string' },
  },
} as const;

export const fileRefSchema = {
  $id: 'FileReference',
  type: 'object',
  required: ['fileId', 'fileName', 'type'],
  properties: {
    fileId: { type: 'string', format: 'uuid' },
    fileName: { type: 'string' },
    type: { type: 'string', description: 'WS, PC_SV, PC_DE, XML, STL, EXTRA or a caller-named type' },
    arrayDimensions: { type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 3 },
    filamentName: { type: 'string' },
  },
} as const;

export const storedFileSchema = {
  $id: 'StoredFile',
  type: 'object',
  required: ['fileId', 'fileName', 'type', 'size', 'uploadDate'],
  properties: {
    fileId: { type: 'string', format: 'uuid' },
    fileName: { type: 'string' },
    type: { type: 'string' },
    size: { type: 'integer', description: 'bytes' },
    uploadDate: { type: 'string' },
  },
} as const;

const settingsProperties = {
  printerModel: { type: 'string', description: 'printer name, e.g. "Creality Ender 3"' },
  supportType: { type: 'string', enum: ['n', 'e', 'b', 'N', 'E', 'B'], description: 'n none, e everywhere, b build plate only' },
  filamentPresetName: { type: 'string', description: 'e.g. "Generic_PLA"' },
  qualityPresetName: { type: 'string', description: 'Recommended (default), Highquality, Sketch' },
  outputFormat: { type: 'string', pattern: '^([Gg]|[Ff])[Cc][Oo][Dd][Ee]$', description: "GCODE or FCODE, any case (the interface spells them GCode, FCode); default: the printer's format" },
  overrides: { type: 'object', additionalProperties: true, description: 'settings by name (docs/settings.md)' },
} as const;

export const taskSettingsSchema = {
  $id: 'TaskSettings',
  type: 'object',
  required: ['printerModel', 'supportType'],
  properties: settingsProperties,
} as const;

export const taskSchema = {
  $id: 'Task',
  type: 'object',
  required: ['taskId', 'queueDate', 'startDate', 'endDate', 'status', 'files', 'settings', 'progress'],
  properties: {
    taskId: { type: 'string', format: 'uuid' },
    queueDate: { type: 'string', description: 'ISO 8601, 7 fractional digits' },
    startDate: { type: 'string', description: '0001-01-01T00:00:00 until started' },
    endDate: { type: 'string', description: '0001-01-01T00:00:00 until ended' },
    status: { type: 'string', enum: ['queued', 'started', 'running', 'finished', 'failed', 'cancelled'] },
    files: { type: 'array', items: { $ref: 'FileReference#' } },
    settings: { $ref: 'TaskSettings#' },
    progress: { type: 'number', minimum: 0, maximum: 1 },
    info: {
      type: 'object',
      required: ['time', 'length', 'weight'],
      properties: {
        time: { type: 'string', description: 'h:mm:ss' },
        length: { type: 'string', description: 'e.g. 3.58meters' },
        weight: { type: 'string', description: 'e.g. 10.69grams' },
      },
    },
    output: {
      type: 'object',
      required: ['outputName', 'outputId', 'taskId', 'fileId', 'format'],
      properties: {
        outputName: { type: 'string' },
        outputId: { type: 'string', format: 'uuid' },
        taskId: { type: 'string', format: 'uuid' },
        fileId: { type: 'string', format: 'uuid' },
        format: { type: 'string', enum: ['GCODE', 'FCODE'] },
      },
    },
    error: {
      type: 'object',
      required: ['errorCode', 'message'],
      properties: { errorCode: { type: 'string' }, message: { type: 'string' } },
    },
    warnings: { type: 'array', items: { type: 'string' } },
  },
} as const;

export const startTaskBodySchema = {
  type: 'object',
  required: ['files', 'settings'],
  properties: {
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['fileId'],
        properties: {
          fileId: { type: 'string' },
          fileName: { type: 'string' },
          type: { type: 'string' },
          arrayDimensions: { type: 'array', items: { type: 'integer' } },
          filamentName: { type: 'string' },
        },
      },
    },
    settings: { type: 'object', required: ['printerModel'], properties: settingsProperties },
  },
} as const;

export const SHARED_SCHEMAS = [apiErrorSchema, gatewayErrorSchema, fileRefSchema, storedFileSchema, taskSettingsSchema, taskSchema];

/** Error responses of a route, by status (401 is the gateway's shape, the rest the interface's). */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  // any route: 431 when the headers are too large, 503 while a store it needs is down (worth a retry)
  const out: Record<number, unknown> = { 401: { $ref: 'GatewayError#' }, 431: { $ref: 'ApiError#' }, 500: { $ref: 'ApiError#' }, 503: { $ref: 'ApiError#' } };
  for (const s of statuses) out[s] = { $ref: 'ApiError#' };
  return out;
}

/**
 * A POST or DELETE reads a body when one is sent, even on a route that takes none (a task read by
 * POST, a cancel, a delete): over 1 MiB it is 413, of a type other than JSON, text or a form 415 (an
 * empty form, as `curl -d ''` sends, is no body).
 */
export const BODY_REFUSALS = errorResponses(413, 415);

/** The header a download names its file in (`cube.gcode`, `cube.fcode`). */
export const CONTENT_DISPOSITION = {
  // a JSON schema: @fastify/swagger wraps it in the OpenAPI header's `schema` itself
  'Content-Disposition': { type: 'string', description: 'attachment; filename=NAME.gcode (or .fcode): the name to save the file as' },
};

/** Security requirement of every /v1 route (any one of them). */
export const V1_SECURITY: Array<Record<string, string[]>> = [{ subscriptionKey: [] }, { subscriptionKeyQuery: [] }, { bearer: [] }, { oauth2: [] }];
