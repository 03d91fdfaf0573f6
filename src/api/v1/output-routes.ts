// Downloads (GET /output/{outputId}/download, and /output/{outputId} as an alias) and the
// caller's uploaded files (GET and DELETE /files/{fileId}).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { BODY_REFUSALS, CONTENT_DISPOSITION, V1_SECURITY, errorResponses } from '../schemas.js';
import { storedFileJson } from '../task-json.js';
import { ignoreContentTypeWithoutBody } from '../bodyless.js';

/** `attachment; filename=x.gcode`, quoted with an RFC 5987 form when the name needs it. */
export function contentDisposition(name: string): string {
  if (/^[A-Za-z0-9._-]+$/.test(name)) return `attachment; filename=${name}`;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function outputRoutes(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  const { core } = opts;
  const download = async (req: FastifyRequest<{ Params: { outputId: string } }>, reply: FastifyReply) => {
    const { output, stream, size } = await core.outputs.open(req.accountId, req.params.outputId, { unlessClaimed: true });
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', contentDisposition(output.outputName))
      .header('content-length', size)
      .send(stream);
  };
  const outputSchema = (summary: string) => ({
    summary,
    tags: ['outputs'],
    security: V1_SECURITY,
    params: { type: 'object', required: ['outputId'], properties: { outputId: { type: 'string' } } },
    response: {
      200: {
        description: 'the G-code or FCode file',
        headers: CONTENT_DISPOSITION,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      ...errorResponses(404),
    },
  });
  app.get('/output/:outputId/download', { schema: outputSchema('Download an output') }, download);
  app.get('/output/:outputId', { schema: outputSchema('Download an output (alias)') }, download);

  const fileParams = { type: 'object', required: ['fileId'], properties: { fileId: { type: 'string' } } };
  app.get<{ Params: { fileId: string } }>(
    '/files/:fileId',
    {
      schema: {
        summary: 'Describe an uploaded file',
        tags: ['files'],
        security: V1_SECURITY,
        params: fileParams,
        response: { 200: { $ref: 'StoredFile#' }, ...errorResponses(404) },
      },
    },
    async (req) => storedFileJson(await core.files.get(req.accountId, req.params.fileId)),
  );
  app.delete<{ Params: { fileId: string } }>(
    '/files/:fileId',
    {
      onRequest: ignoreContentTypeWithoutBody,
      schema: {
        summary: 'Delete an uploaded file',
        tags: ['files'],
        security: V1_SECURITY,
        params: fileParams,
        response: { 204: { type: 'null', description: 'deleted' }, ...errorResponses(404), ...BODY_REFUSALS },
      },
    },
    async (req, reply) => {
      await core.files.delete(req.accountId, req.params.fileId);
      return reply.code(204).send();
    },
  );
}
