// POST /v0.2/UploadFile: the STL as multipart/form-data (a text field `FileName` and a file field
// `file`, as the public clients send it) or as the raw body with the name in the query
// (`?filename=`, any casing). Either way it streams into the same file service as v1's upload.
import multipart, { type Multipart } from '@fastify/multipart';
import { refuseUpload } from '../discard-body.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import type { ServiceCore } from '../../service/embedded-runtime.js';
import { badRequest, payloadTooLarge } from '../../service/errors.js';
import { fold, text } from '../../service/legacy-keys.js';
import type { FileRecord } from '../../service/model.js';
import type { StagedBlob } from '../../service/file-service.js';
import { envelope } from '../legacy/envelope.js';
import { RESULTS, legacyRoute } from '../legacy/schemas.js';
import { readAnyContentTypeAsBytes } from '../raw-body-content-type.js';
import { requireStlName } from './stl-name.js';

const TYPE = 'STL';

/**
 * The file part's bytes, failing (so the blob store drops its temporary file) when the part stops
 * short: busboy destroys the part's stream without an error when the body ends before the closing
 * boundary, and a stream destroyed before the store pipes it would leave the upload waiting forever.
 */
function wholePart(file: Readable, raw: IncomingMessage): Readable {
  const out = new PassThrough();
  // the store may start reading only later; it still sees the error (the stream stays errored)
  out.on('error', () => undefined);
  const cutOff = () => {
    if (!file.readableEnded) out.destroy(badRequest('the multipart body ended before the file part was complete'));
  };
  if (file.destroyed) cutOff();
  file.on('error', cutOff).on('close', cutOff);
  raw.on('close', () => {
    if (!raw.complete) cutOff();
  });
  // the store gave up (size limit, disk): stop reading the part
  out.on('close', () => {
    if (!file.readableEnded) file.destroy();
  });
  file.pipe(out);
  return out;
}

/** Text fields a form may have besides its file (the public clients send one, FileName). */
const MAX_FIELDS = 20;
const tooManyFields = () => badRequest(`the form has more than ${MAX_FIELDS} fields: send FileName and the file`);

/** The next part of the form; what the parser itself refuses (no boundary, a malformed part header) is the client's mistake. */
async function nextPart(parts: AsyncIterator<Multipart>): Promise<IteratorResult<Multipart>> {
  try {
    return await parts.next();
  } catch (err) {
    // busboy's errors are plain Errors; the plugin's own (limits) carry their status
    if (err instanceof Error && !('statusCode' in err)) throw badRequest(`the multipart/form-data body cannot be read: ${err.message}`);
    // a count limit is a form that is not the one this call takes (the size limit stays 413)
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest('the form has more than one file part: send one STL as the field `file`');
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') throw tooManyFields();
    throw err;
  }
}

export async function uploadFileRoute(app: FastifyInstance, opts: { core: ServiceCore; apiVersion: string; tag: string }): Promise<void> {
  const { core, apiVersion, tag } = opts;
  const limit = core.files.uploadLimit;
  // one byte over the limit reaches the blob store, which then refuses the file (413); the part's
  // file name as sent (busboy would cut `../../x.stl` to `x.stl`), so the v1 name rule refuses a path
  // fields: one over MAX_FIELDS, which readForm refuses itself as it reaches it: the parser's own
  // limit, hit before the file part, surfaced only once the file part was cut off ("the multipart
  // body ended before the file part was complete")
  const limits = { fileSize: limit + 1, files: 1, fields: MAX_FIELDS + 1, fieldSize: 64 * 1024 };
  // the raw bytes whatever the type says (the scope reads text/plain as JSON for the other calls)
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
  // the part named `file` is the file even without a filename or a type: .NET's ByteArrayContent and
  // StreamContent send neither (busboy would take it for a text field, and cut it at 64 KiB)
  const isPartAFile = (field: string | undefined, type: string | undefined, fileName: string | undefined) =>
    fileName !== undefined || type === 'application/octet-stream' || field?.toLowerCase() === 'file';
  await app.register(multipart, { limits, preservePath: true, isPartAFile });

  async function fromMultipart(req: FastifyRequest, name: string | undefined): Promise<FileRecord> {
    const kept: { file?: FileRecord; staged?: StagedBlob } = {};
    try {
      return await readForm(req, name, kept);
    } catch (err) {
      // refused after the file was stored (a second file part, too many fields, no usable name): keep nothing
      if (kept.file) await core.files.delete(req.accountId, kept.file.id).catch(() => undefined);
      else if (kept.staged) await core.files.discard(kept.staged);
      throw err;
    }
  }

  /**
   * Reads the form. A FileName before the file part is checked before the file is read, and names
   * it. Otherwise the file is stored first and named once the form has been read: by a FileName
   * field after it, else by ?filename= (checked before the file, so a wrong one is refused at
   * once), else by the part's own file name.
   */
  async function readForm(req: FastifyRequest, queryName: string | undefined, kept: { file?: FileRecord; staged?: StagedBlob }): Promise<FileRecord> {
    let fieldName: string | undefined;
    let partName: string | undefined;
    let laterName: string | undefined;
    let fields = 0;
    const parts = req.parts();
    for (let next = await nextPart(parts); !next.done; next = await nextPart(parts)) {
      const part = next.value;
      if (part.type === 'field') {
        if (++fields > MAX_FIELDS) throw tooManyFields();
        if (part.fieldname.toLowerCase() === 'filename' && typeof part.value === 'string' && part.value.trim()) {
          if (kept.file || kept.staged) laterName = part.value.trim();
          else fieldName = part.value.trim();
        }
        continue;
      }
      if (kept.file || kept.staged) {
        part.file.resume();
        continue;
      }
      if (fieldName !== undefined) {
        requireStlName(fieldName, 'FileName');
        kept.file = await core.files.upload(req.accountId, core.files.checkUpload(TYPE, fieldName), wholePart(part.file, req.raw));
      } else {
        if (queryName !== undefined) {
          requireStlName(queryName, 'filename');
          core.files.checkUpload(TYPE, queryName);
        }
        partName = part.filename || undefined;
        kept.staged = await core.files.stage(wholePart(part.file, req.raw));
      }
    }
    if (kept.file) return kept.file;
    if (!kept.staged) throw badRequest('the form has no file field: send the STL as the field `file`');
    const [fileName, field] =
      laterName !== undefined ? [laterName, 'FileName'] : queryName !== undefined ? [queryName, 'filename'] : [partName, "the file part's file name"];
    if (!fileName) throw badRequest('FileName is required (a form field, or ?filename=)');
    requireStlName(fileName, field);
    kept.file = await core.files.record(req.accountId, core.files.checkUpload(TYPE, fileName), kept.staged);
    kept.staged = undefined;
    return kept.file;
  }

  async function fromRawBody(req: FastifyRequest, name: string | undefined): Promise<FileRecord> {
    if (!name) throw badRequest('filename is required: send multipart (FileName + file) or the raw bytes with ?filename=');
    requireStlName(name, 'filename');
    const target = core.files.checkUpload(TYPE, name);
    const body = (req.body as Readable | undefined) ?? req.raw;
    return core.files.upload(req.accountId, target, body);
  }

  app.post(
    '/UploadFile',
    {
      schema: legacyRoute(tag, 'Upload an STL file', RESULTS.upload, {
        description:
          'multipart/form-data with a text field FileName and a file field file; or the raw bytes (application/octet-stream) with ?filename=NAME.stl.',
        querystring: { type: 'object', additionalProperties: true, properties: { filename: { type: 'string' } } },
        // documents the two ways to send the file (the route reads the body itself: no validation)
        body: {
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  FileName: { type: 'string', description: 'the STL file name (or ?filename=)' },
                  file: { type: 'string', format: 'binary', description: 'the STL bytes' },
                },
              },
            },
            'application/octet-stream': { schema: { type: 'string', format: 'binary', description: 'the STL bytes; name it with ?filename=NAME.stl' } },
          },
        },
      }),
      validatorCompiler: () => () => true,
      onRequest: async (req) => {
        const declared = Number(req.headers['content-length']);
        // multipart adds a few hundred bytes of its own
        if (Number.isFinite(declared) && declared > limit + 64 * 1024) throw payloadTooLarge(limit);
        await readAnyContentTypeAsBytes(req);
      },
    },
    async (req: FastifyRequest, reply: FastifyReply) => {
      const name = text(fold(req.query), 'filename');
      try {
        const file = req.isMultipart() ? await fromMultipart(req, name) : await fromRawBody(req, name);
        req.log.info({ fileId: file.id, type: file.type, bytes: file.size }, 'file uploaded');
        return envelope(apiVersion, { fileid: file.id, fileId: file.id, filename: file.fileName, fileName: file.fileName });
      } catch (err) {
        return refuseUpload(err, req, reply);
      }
    },
  );
}
