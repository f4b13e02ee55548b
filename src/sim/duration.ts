/** ISO 8601 durations as the control API takes them (`PT10M`, `P1DT2H`, `PT0.5S`), in milliseconds. */
const DURATION = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const [, w = '0', d = '0', h = '0', min = '0', s = '0'] = m;
  return ((Number(w) * 7 + Number(d)) * 24 * 3600 + Number(h) * 3600 + Number(min) * 60 + Number(s)) * 1000;
}
