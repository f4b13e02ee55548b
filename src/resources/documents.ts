/**
 * Request documents (spec: Resources > Request document; Endpoints > Request documents): uploaded
 * as multipart on a cart request or a submitted request; GET returns the record, never the file.
 */
import { DOCUMENT_EDITABLE } from '../domain/lifecycles.js';
import type { Deps } from '../deps.js';
import type { Principal } from '../http/auth.js';
import { assertFound, invalidField, invalidParameter } from '../http/errors.js';
import type { HandlerMap } from '../http/handler.js';
import type { Upload } from '../http/multipart.js';
import { pageOf } from '../http/pagination.js';
import type { DocumentRow, RequestRow } from '../store/rows.js';
import { findCart, writableCart } from './carts.js';
import { cartRequest, submittedRequest } from './requests.js';

/** How long an uploaded file is guaranteed to be retrievable (the spec's `expires_at`). */
const RETENTION_MS = 90 * 24 * 3600 * 1000;

const present = (row: DocumentRow) => ({ data: row.data, type: 'request_document' as const });

/** A submitted request's documents change only in the statuses the spec lists. */
function assertEditable(request: RequestRow): void {
  const status = request.data.status ?? 'NEW';
  if (!DOCUMENT_EDITABLE.includes(status)) {
    throw invalidParameter('request_id', `The request is ${status}; documents change only while it is ${DOCUMENT_EDITABLE.join(', ')}.`);
  }
}

async function upload(deps: Deps, principal: Principal, request: RequestRow, parts: Upload | undefined) {
  const { store, clock, ids } = deps;
  const file = parts?.file;
  if (!file) throw invalidField('/file', 'The file part is required.');
  const fields = parts.fields;
  const name = fields.name ?? '';
  if (store.documents.ofRequest(principal.accountId, request.data.id).some((d) => d.data.name === name)) {
    throw invalidField('/name', `A document named ${name} exists on this request.`);
  }
  const now = clock.now();
  const id = ids.ulid();
  await store.files.put(id, file.bytes);
  const row = store.documents.insert({
    account_id: principal.accountId,
    request_id: request.data.id,
    file_hint: fields.file_hint ?? null,
    size: file.bytes.length,
    data: {
      id, name,
      filename: fields.filename ?? (file.filename || null),
      content_type: file.mimeType,
      notes: fields.notes ?? null,
      expires_at: new Date(now.getTime() + RETENTION_MS).toISOString(),
      inserted_at: now.toISOString(),
      updated_at: now.toISOString(),
    },
  });
  await store.commit();
  return { status: 201 as const, body: present(row) };
}

async function remove(deps: Deps, principal: Principal, request: RequestRow, id: string) {
  const { store } = deps;
  const row = store.documents.get(principal.accountId, id);
  const doc = assertFound(row?.request_id === request.data.id ? row : undefined, 'request_document', id);
  await store.files.remove(doc.data.id);
  store.documents.remove(doc);
  await store.commit();
  return { status: 200 as const, body: present(doc) };
}

function documentOf(deps: Deps, principal: Principal, request: RequestRow, id: string): DocumentRow {
  const row = deps.store.documents.get(principal.accountId, id);
  return assertFound(row?.request_id === request.data.id ? row : undefined, 'request_document', id);
}

export const documentHandlers = {
  uploadCartRequestDocument: ({ deps, principal, params, upload: parts }) => {
    writableCart(deps.store, principal, params.cart_id);
    return upload(deps, principal, cartRequest(deps.store, principal, params.cart_id, params.request_id), parts);
  },

  listCartRequestDocuments: ({ deps, principal, params, query, meta }) => {
    findCart(deps.store, principal, params.cart_id);
    const request = cartRequest(deps.store, principal, params.cart_id, params.request_id);
    return pageOf({ query, meta, principal },
      deps.store.documents.ofRequest(principal.accountId, request.data.id), present, { scope: request.data.id });
  },

  getCartRequestDocument: ({ deps, principal, params }) => {
    findCart(deps.store, principal, params.cart_id);
    const request = cartRequest(deps.store, principal, params.cart_id, params.request_id);
    return { status: 200, body: present(documentOf(deps, principal, request, params.id)) };
  },

  deleteCartRequestDocument: ({ deps, principal, params }) => {
    writableCart(deps.store, principal, params.cart_id);
    return remove(deps, principal, cartRequest(deps.store, principal, params.cart_id, params.request_id), params.id);
  },

  uploadRequestDocument: ({ deps, principal, params, upload: parts }) => {
    const request = submittedRequest(deps.store, principal, params.request_id);
    assertEditable(request);
    return upload(deps, principal, request, parts);
  },

  listRequestDocuments: ({ deps, principal, params, query, meta }) => {
    const request = submittedRequest(deps.store, principal, params.request_id);
    return pageOf({ query, meta, principal },
      deps.store.documents.ofRequest(principal.accountId, request.data.id), present, { scope: request.data.id });
  },

  getRequestDocument: ({ deps, principal, params }) => {
    const request = submittedRequest(deps.store, principal, params.request_id);
    return { status: 200, body: present(documentOf(deps, principal, request, params.id)) };
  },

  deleteRequestDocument: ({ deps, principal, params }) => {
    const request = submittedRequest(deps.store, principal, params.request_id);
    assertEditable(request);
    return remove(deps, principal, request, params.id);
  },
} satisfies HandlerMap;
