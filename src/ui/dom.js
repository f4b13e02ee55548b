// @ts-check
// DOM helpers: elements from data (text, never HTML), and how times and statuses are shown.

// ---- DOM helpers

/**
 * An element with attributes (`on*` functions are listeners) and children (strings become text).
 * @param {string} tag
 * @param {Record<string, unknown> | null} [attrs]
 * @param {...unknown} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function')
      el.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === 'class') el.className = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat())
    if (c !== undefined && c !== null && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/**
 * An element of the page by id. The page's ids are fixed (index.html and the views' own), so a
 * missing one is a bug: it throws rather than answering null.
 * @param {string} id
 * @returns {HTMLInputElement}
 */
export const $ = (id) => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no element #${id}`);
  return /** @type {HTMLInputElement} */ (el);
};
/** An element of the page by id, or null when the view that has it is not shown. */
export const maybe$ = (/** @type {string} */ id) =>
  /** @type {HTMLInputElement | null} */ (document.getElementById(id));
/** The page's elements that match a selector. */
export const all = (/** @type {string} */ selector) =>
  /** @type {HTMLElement[]} */ ([...document.querySelectorAll(selector)]);
/**
 * How far ahead a time is, as a person says it: `in 7 d`, `in 2 h 5 min`, `in 40 s`; `due` when it is not ahead.
 * @param {number} ms
 */
export function inTime(ms) {
  if (ms <= 0) return 'due';
  const s = Math.round(ms / 1000);
  const [d, h, m] = [Math.floor(s / 86400), Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60)];
  if (d) return `in ${d} d${h ? ` ${h} h` : ''}`;
  if (h) return `in ${h} h${m ? ` ${m} min` : ''}`;
  return m ? `in ${m} min` : `in ${s} s`;
}
export const statusClass = (status) => `s${String(status)[0]}xx`;
export const json = (value) => JSON.stringify(value, null, 2);
/** A body as text: indented when it is JSON. */
export const pretty = (text) => {
  try {
    return json(JSON.parse(text));
  } catch {
    return text;
  }
};
export const wallTime = (iso) => (iso ? new Date(iso).toLocaleTimeString([], { hour12: false }) : '');
export const clockTime = (iso) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—');

export function say(text, error = false) {
  const el = $('status');
  el.textContent = text;
  el.className = error ? 'status error' : 'status';
}

/**
 * A trace id as the page shows it: a link to the trace viewer `--trace-viewer` names (the page's
 * `dipswitch-trace-viewer` meta tag, `{trace_id}` replaced), else the id as text; nothing for none.
 * @param {string | undefined | null} traceId
 */
export function traceLink(traceId) {
  if (!traceId) return null;
  const viewer = document.querySelector('meta[name="dipswitch-trace-viewer"]')?.getAttribute('content');
  if (!viewer) return h('code', { class: 'trace' }, traceId);
  const href = viewer.replace('{trace_id}', encodeURIComponent(traceId));
  return h('a', { class: 'trace', href, target: '_blank', rel: 'noopener' }, traceId);
}
