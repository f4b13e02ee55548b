/** A document upload as its handler receives it (read by src/http/multipart.ts): the text parts and one file part. */

/** The largest upload (interface.md section 4: larger answers 413). */
export const DOCUMENT_LIMIT = 8 * 1024 * 1024;

export interface Upload {
  fields: Record<string, string>;
  file?: { bytes: Buffer; filename: string; mimeType: string };
}
