// Upload routes take the body as raw bytes whatever its Content-Type says. A header fastify cannot
// parse as a media type (`garbage`, `a;b`, `/`) would otherwise be refused with 415 before the
// route's catch-all parser is asked, so such a header is read as application/octet-stream.
import type { FastifyRequest } from 'fastify';

const MEDIA_TYPE = /^\s*[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*(?:;|$)/;

export async function readAnyContentTypeAsBytes(req: FastifyRequest): Promise<void> {
  const type = req.headers['content-type'];
  if (type !== undefined && !MEDIA_TYPE.test(type)) req.headers['content-type'] = 'application/octet-stream';
}
