/**
 * Reading a document upload (multipart/form-data) with busboy: the text parts and one file part,
 * up to 8 MB (interface.md section 4: larger answers 413).
 */
import { Readable } from 'node:stream';
import busboy from 'busboy';
import { DomainError, invalidField } from '../domain/errors.js';
import { DOCUMENT_LIMIT, type Upload } from '../handling/upload.js';
import type { Incoming } from './exchange.js';

export function readMultipart(req: Incoming): Promise<Upload> {
  const type = String(req.headers['content-type'] ?? '');
  if (!type.startsWith('multipart/form-data')) {
    return Promise.reject(invalidField('/', 'A document upload must be multipart/form-data.'));
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: DOCUMENT_LIMIT, files: 1, fields: 20, fieldSize: 70_000 },
      });
    } catch (e) {
      reject(invalidField('/', `The multipart body cannot be read: ${(e as Error).message}.`));
      return;
    }
    const upload: Upload = { fields: {} };
    let failure: DomainError | undefined;
    parser.on('field', (name, value) => {
      upload.fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failure = new DomainError('payload_too_large', [
          { detail: 'The file is over the 8 MB limit (4 MB is the supported size).' },
        ]);
      });
      stream.on('end', () => {
        if (name !== 'file') {
          failure ??= invalidField(
            `/${name}`,
            `${name} is not an accepted part; the file goes in the part named file.`,
          );
          return;
        }
        upload.file = { bytes: Buffer.concat(chunks), filename: info.filename ?? '', mimeType: info.mimeType };
      });
    });
    parser.on('filesLimit', () => {
      failure ??= invalidField('/file', 'Only one file may be uploaded at a time.');
    });
    parser.on('error', (e: Error) => reject(invalidField('/', `The multipart body cannot be read: ${e.message}.`)));
    parser.on('close', () => (failure ? reject(failure) : resolve(upload)));
    // express's request as it comes; an in-process caller's bytes at once
    (req.stream ?? Readable.from([req.body ?? Buffer.alloc(0)])).pipe(parser);
  });
}
