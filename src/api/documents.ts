/**
 * Request documents (spec: Resources > Request document; Endpoints > Request documents): uploaded
 * as multipart on a cart request or a submitted request; GET returns the record, never the file.
 * The file is written (fsynced) before its record is committed, and removed again if the record is not.
 */
import { DOCUMENT_EDITABLE } from '../domain/transitions.js';
import { assertFound, invalidField, invalidParameter } from '../domain/errors.js';
import type { HandlerMap } from '../handling/handler.js';
import type { Upload } from '../handling/upload.js';
import { pageOf } from '../handling/pagination.js';
import type { Work } from '../engine/work.js';
import type { DocumentRow, RequestRow } from '../domain/rows.js';
import type { AccountView } from '../store/store.js';
import { findCart, writableCart } from './carts.js';
import { cartRequest, submittedRequest } from './requests.js';

/** How long an uploaded file is guaranteed to be retrievable (the spec's `expires_at`). */
const RETENTION_MS = 90 * 24 * 3600 * 1000;

const present = (row: DocumentRow) => ({ data: row.data, type: 'request_document' as const });

/** A submitted request's documents change only in the statuses the spec lists. */
function assertEditable(request: RequestRow): void {
  const status = request.data.status ?? 'NEW';
  if (!DOCUMENT_EDITABLE.includes(status)) {
    throw invalidParameter(
      'request_id',
      `The request is ${status}; documents change only while it is ${DOCUMENT_EDITABLE.join(', ')}.`,
    );
  }
}

async function upload(work: Work, request: RequestRow, parts: Upload | undefined) {
  const file = parts?.file;
  if (!file) throw invalidField('/file', 'The file part is required.');
  const fields = parts.fields;
  const name = fields.name ?? '';
  if (await work.documents.byName(request.data.id, name)) {
    throw invalidField('/name', `A document named ${name} exists on this request.`);
  }
  const now = work.clock.now();
  const id = work.ids.ulid();
  await work.files.put(id, file.bytes);
  const row = await work.documents.insert({
    request_id: request.data.id,
    file_hint: fields.file_hint ?? null,
    size: file.bytes.length,
    data: {
      id,
      name,
      filename: fields.filename ?? (file.filename || null),
      content_type: file.mimeType,
      notes: fields.notes ?? null,
      expires_at: new Date(now.getTime() + RETENTION_MS).toISOString(),
      inserted_at: now.toISOString(),
      updated_at: now.toISOString(),
    },
  });
  return { status: 201 as const, body: present(row) };
}

async function documentOf(store: AccountView, request: RequestRow, id: string): Promise<DocumentRow> {
  const row = await store.documents.get(id);
  return assertFound(row?.request_id === request.data.id ? row : undefined, 'request_document', id);
}

async function remove(store: AccountView, request: RequestRow, id: string) {
  const doc = await documentOf(store, request, id);
  await store.documents.remove(doc);
  store.files.remove(doc.data.id);
  return { status: 200 as const, body: present(doc) };
}

export const documentHandlers = {
  uploadCartRequestDocument: async (ctx) => {
    const { store, params } = ctx;
    await writableCart(store, params.cart_id);
    return upload(store, await cartRequest(store, params.cart_id, params.request_id), ctx.upload);
  },

  listCartRequestDocuments: async ({ store, principal, params, query, meta }) => {
    await findCart(store, params.cart_id);
    const request = await cartRequest(store, params.cart_id, params.request_id);
    return pageOf({ query, meta, principal }, await store.documents.ofRequest(request.data.id), present, {
      scope: request.data.id,
    });
  },

  getCartRequestDocument: async ({ store, params }) => {
    await findCart(store, params.cart_id);
    const request = await cartRequest(store, params.cart_id, params.request_id);
    return { status: 200, body: present(await documentOf(store, request, params.id)) };
  },

  deleteCartRequestDocument: async ({ store, params }) => {
    await writableCart(store, params.cart_id);
    return remove(store, await cartRequest(store, params.cart_id, params.request_id), params.id);
  },

  uploadRequestDocument: async (ctx) => {
    const request = await submittedRequest(ctx.store, ctx.params.request_id);
    assertEditable(request);
    return upload(ctx.store, request, ctx.upload);
  },

  listRequestDocuments: async ({ store, principal, params, query, meta }) => {
    const request = await submittedRequest(store, params.request_id);
    return pageOf({ query, meta, principal }, await store.documents.ofRequest(request.data.id), present, {
      scope: request.data.id,
    });
  },

  getRequestDocument: async ({ store, params }) => {
    const request = await submittedRequest(store, params.request_id);
    return { status: 200, body: present(await documentOf(store, request, params.id)) };
  },

  deleteRequestDocument: async ({ store, params }) => {
    const request = await submittedRequest(store, params.request_id);
    assertEditable(request);
    return remove(store, request, params.id);
  },
} satisfies HandlerMap;
