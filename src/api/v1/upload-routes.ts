// POST /v1/upload/{fileType}/{fileName}: the raw body streams to the blob store. Fastify does not
// enforce its body limit on a pass-through body, so the size is checked twice: Content-Length
// before anything is read, and a byte counter while streaming (chunked uploads, lying clients).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { badRequest, payloadTooLarge } from '../../service/errors.js';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { refuseUpload } from '../discard-body.js';
import { readAnyContentTypeAsBytes } from '../raw-body-content-type.js';
import { V1_SECURITY, errorResponses } from '../schemas.js';

interface UploadParams {
  fileType: string;
  fileName: string;
}

export async function uploadRoutes(app: FastifyInstance, opts: { core: ServiceCore }): Promise<void> {
  const { core } = opts;
  // any Content-Type: the body is handed over unread
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  app.addHook('onRequest', readAnyContentTypeAsBytes);

  app.post<{ Params: UploadParams }>(
    '/upload/:fileType/:fileName',
    {
      schema: {
        summary: 'Upload a file',
        description:
          'Raw file bytes as the body (Content-Type application/octet-stream). fileType is WS, PC_SV, PC_DE, XML, STL, EXTRA or a name of your own for files that take no part in slicing.',
        tags: ['files'],
        security: V1_SECURITY,
        params: {
          type: 'object',
          required: ['fileType', 'fileName'],
          properties: { fileType: { type: 'string' }, fileName: { type: 'string' } },
        },
        body: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        response: {
          200: {
            type: 'object',
            required: ['fileId', 'fileName', 'type'],
            properties: { fileId: { type: 'string', format: 'uuid' }, fileName: { type: 'string' }, type: { type: 'string' } },
          },
          // 415: a compressed body (Content-Encoding)
          ...errorResponses(400, 413, 415),
        },
      },
      // the body is a stream: nothing to validate here (the service checks type and name)
      validatorCompiler: () => () => true,
      onRequest: async (req) => {
        const declared = Number(req.headers['content-length']);
        if (Number.isFinite(declared) && declared > core.files.uploadLimit) throw payloadTooLarge(core.files.uploadLimit);
      },
    },
    async (req: FastifyRequest<{ Params: UploadParams }>, reply: FastifyReply) => {
      const target = core.files.checkUpload(req.params.fileType, req.params.fileName);
      const body = (req.body as Readable | undefined) ?? req.raw;
      try {
        // a form (as v0.2's UploadFile takes) would be stored as it is, boundaries and all, and fail
        // only when sliced, as a model with billions of triangles
        if (/^\s*multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
          throw badRequest(
            "the upload is the file's raw bytes as the body (curl --data-binary @cube.stl, Content-Type application/octet-stream), not a multipart form",
          );
        }
        const file = await core.files.upload(req.accountId, target, body);
        req.log.info({ fileId: file.id, type: file.type, bytes: file.size }, 'file uploaded');
        return { fileId: file.id, fileName: file.fileName, type: file.type };
      } catch (err) {
        return refuseUpload(err, req, reply);
      }
    },
  );
}
