/**
 * What a routing target must look like (spec: Switch `sms_data`/`mms_data`, DID destination
 * `destination`). Each check answers null when the value is acceptable, else why not.
 */

export type Problem = string | null;

const E164 = /^\+?[1-9][0-9]{1,14}$/;

/** E.164, the plus optional (spec: "plus may be omitted"). */
export const phoneProblem = (v: string | null | undefined): Problem =>
  v && E164.test(v.trim()) ? null : 'must be an E.164 number (the plus may be omitted)';

/** The number with its plus: `13125550100` → `+13125550100`. The one place numbers are normalized. */
export const toE164 = (v: string): string => (v.trim().startsWith('+') ? v.trim() : `+${v.trim()}`);

/** The NANP toll-free NPAs (glossary: toll-free numbers). */
export const TOLL_FREE_NPAS: readonly string[] = ['800', '833', '844', '855', '866', '877', '888'];

export const isTollFreeNpa = (npa: string): boolean => TOLL_FREE_NPAS.includes(npa);

/** The NPA (area code) of a NANP number, E.164 with or without the plus. */
export const npaOf = (number: string): string => toE164(number).replace(/^\+1/, '').slice(0, 3);

function parseUrl(v: string | null | undefined): URL | null {
  if (!v) return null;
  try {
    return new URL(v);
  } catch {
    // not a URL: no address
    return null;
  }
}

export function httpUrlProblem(v: string | null | undefined): Problem {
  const url = parseUrl(v);
  return url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname
    ? null
    : 'must be an http or https URL';
}

/** MM4: scheme mm4 (no TLS), mm4+s (optional TLS) or mm4s (mandatory TLS), host and port only. */
export function mm4UrlProblem(v: string | null | undefined): Problem {
  const url = parseUrl(v);
  if (!url || !['mm4:', 'mm4+s:', 'mm4s:'].includes(url.protocol) || !url.hostname) {
    return 'must be a URL with scheme mm4, mm4+s or mm4s';
  }
  if ((url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) return 'must be a URL without a path';
  return null;
}

export function sftpUrlProblem(v: string | null | undefined): Problem {
  const url = parseUrl(v);
  return url && url.protocol === 'sftp:' && url.hostname ? null : 'must be a URL with scheme sftp';
}

/** A SIP address `local@domain`, a port allowed after the domain. */
export function sipProblem(v: string | null | undefined): Problem {
  const m =
    /^([^@\s:]+)@([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*)(?::(\d{1,5}))?$/.exec(
      v ?? '',
    );
  if (!m) return 'must be local@domain, optionally with :port';
  return m[3] && Number(m[3]) > 65535 ? 'has a port above 65535' : null;
}

/** One number, or several separated by commas. */
export function phoneListProblem(v: string | null | undefined): Problem {
  const parts = (v ?? '').split(',').map((p) => p.trim());
  return parts.length > 0 && parts.every((p) => E164.test(p))
    ? null
    : 'must be a number or a comma-separated list of numbers';
}

export const BUILT_IN_TTS = ['DISCONNECTED', 'TEXT_ONLY', 'BUSY', 'CONGESTION'] as const;

export const ttsProblem = (v: string | null | undefined): Problem =>
  (BUILT_IN_TTS as readonly string[]).includes(v ?? '') ? null : `must be one of ${BUILT_IN_TTS.join(', ')}`;

export const textProblem = (v: string | null | undefined): Problem =>
  v && v.trim() ? null : 'must be a non-empty text';

export const unusedProblem = (v: string | null | undefined): Problem => (v === 'UNUSED' ? null : 'must be UNUSED');

/** The voice target rules, shared by a switch's fallback (`voice_data`) and DID destinations. */
export const voiceTargetProblem: Record<
  'VOIP' | 'PSTN' | 'HTTP_ROUTE' | 'TTS' | 'TTS_CUSTOM',
  (v: string | null | undefined) => Problem
> = {
  VOIP: sipProblem,
  PSTN: phoneListProblem,
  HTTP_ROUTE: httpUrlProblem,
  TTS: ttsProblem,
  TTS_CUSTOM: textProblem,
};

/** An SFTP server named by URL (`sftp://host[:port]/path`) or as `host[:port]`. */
export function sftpTargetProblem(v: string | null | undefined): Problem {
  if (!sftpUrlProblem(v)) return null;
  const m = /^([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::(\d{1,5}))?$/.exec(v ?? '');
  return m && (!m[2] || Number(m[2]) <= 65535) ? null : 'must be an sftp URL or host[:port]';
}
