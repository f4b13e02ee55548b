/**
 * One redaction rule for everything dipswitch shows or logs (the request journal, the delivery
 * log, the server log): Authorization and Proxy-Authorization, any header whose name says it
 * carries a secret, the userinfo of a URL, and every secret field of the contract.
 */
import { secretFields } from '../contract.js';

export const REDACTED = '[redacted]';

/** Header names that carry a secret: the two auth headers, cookies, and any that say so. */
const SECRET_HEADER = /auth|token|secret|key|password|signature|cookie/i;

export const isSecretHeader = (name: string): boolean => SECRET_HEADER.test(name);

/** Headers with secret values replaced; the auth scheme (`Bearer`, `Basic`) stays, as it says how. */
export function redactHeaders(headers: Record<string, string | readonly string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    const value = Array.isArray(v) ? v.join(', ') : String(v);
    if (!isSecretHeader(k)) out[k] = value;
    else
      out[k] =
        /^(authorization|proxy-authorization)$/i.test(k) && /^\S+\s/.test(value)
          ? `${value.split(/\s/)[0]} ${REDACTED}`
          : REDACTED;
  }
  return out;
}

/** The URL without a password in its userinfo (`https://u:p@host/` → `https://u:[redacted]@host/`). */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]{0,31}:\/\/)([^/@?#]{0,1024})@/i, (_m, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon >= 0 ? `${userinfo.slice(0, colon)}:${REDACTED}` : REDACTED}@`;
  });
}

/**
 * A deep copy with every secret field's value replaced, a secret key's material (`data.data`) too,
 * the password of any URL, and the value of a custom header whose name says it carries a secret.
 */
export function redactBody(value: unknown, parentType?: string, field?: string): unknown {
  // a URL's password sits before an `@`: a string without one has none (most have none)
  if (typeof value === 'string') return value.includes('@') ? redactUrl(value) : value;
  if (Array.isArray(value)) return value.map((v) => redactBody(v, parentType, field));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  const type = typeof obj.type === 'string' ? obj.type : parentType;
  const fields = secretFields();
  const secretHeader = field === 'custom_headers' && typeof obj.key === 'string' && isSecretHeader(obj.key);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (fields.has(k) && (typeof v === 'string' || v === null)) out[k] = v === null ? null : REDACTED;
    else if (k === 'data' && typeof v === 'string' && type === 'secret_key') out[k] = REDACTED;
    else if (k === 'value' && secretHeader) out[k] = REDACTED;
    else out[k] = redactBody(v, type, k);
  }
  return out;
}

/** Secret fields found in a text that is not JSON (cut, or malformed). */
let secretFieldPattern: RegExp | undefined;

/**
 * The text with the password of every URL in it replaced. Each `://` is looked at once, with a
 * bounded pattern after it: a regular expression over the whole text backtracks quadratically on
 * a long run of letters.
 */
function passwordsOut(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    const m = /^([^/@?#:"\s]{0,255}:)[^/@?#"\s]{0,1024}@/.exec(text.slice(at + 3, at + 3 + 1_300));
    if (!m?.[1]) continue;
    out += text.slice(from, at + 3 + m[1].length) + REDACTED;
    from = at + 3 + m[0].length - 1;
  }
  return out + text.slice(from);
}

export function redactText(text: string): string {
  secretFieldPattern ??= new RegExp(`"(${[...secretFields()].join('|')})"\\s*:\\s*"(?:[^"\\\\]|\\\\.)*"?`, 'g');
  const out = passwordsOut(text);
  // a secret field is a quoted name: a text without a quote has none (a log line's message)
  return out.includes('"') ? out.replace(secretFieldPattern, (_m, name: string) => `"${name}":"${REDACTED}"`) : out;
}
