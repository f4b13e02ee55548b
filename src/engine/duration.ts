/**
 * ISO 8601 durations as the control API takes them (`PT10M`, `P1DT2H`, `PT0.5S`, `P1M`, `P1Y2M`),
 * read and added by Temporal (temporal-polyfill): months and years are calendar months and years,
 * counted in UTC (`P1M` from 31 January is the end of February).
 */
import { Temporal } from 'temporal-polyfill';

/** ISO 8601's duration syntax (with Temporal's sign and decimal fraction), whatever the size of its numbers. */
const ISO_DURATION =
  /^[+-]?P(?=\d|T\d)(?:\d+(?:[.,]\d+)?Y)?(?:\d+(?:[.,]\d+)?M)?(?:\d+(?:[.,]\d+)?W)?(?:\d+(?:[.,]\d+)?D)?(?:T(?=\d)(?:\d+(?:[.,]\d+)?H)?(?:\d+(?:[.,]\d+)?M)?(?:\d+(?:[.,]\d+)?S)?)?$/i;

/** `from` (ms) plus the duration, or a message saying why it cannot be added. */
export function addDuration(from: number, text: string): number | string {
  let duration: Temporal.Duration;
  try {
    duration = Temporal.Duration.from(text);
  } catch {
    // written as a duration, refused for its size: a number of units past what any calendar can add
    return ISO_DURATION.test(text)
      ? `${text} is an ISO 8601 duration too large to add to a clock (it reaches past the year 9999).`
      : `${text} is not an ISO 8601 duration such as PT10M, P1DT2H or P1M.`;
  }
  if (duration.sign < 0) return `${text} is negative: time never goes backwards.`;
  try {
    return Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO('UTC').add(duration).epochMilliseconds;
  } catch {
    // Temporal's RangeError: past the last instant it can hold
    return `${text} takes the clock past the year 9999.`;
  }
}

/** A span of time (ms) as an ISO 8601 duration in days, hours, minutes and seconds (`P270DT3H`, `PT10M`, `PT0S`). */
export function durationText(ms: number): string {
  const units: [string, number][] = [
    ['D', 86_400_000],
    ['H', 3_600_000],
    ['M', 60_000],
  ];
  let rest = Math.max(0, Math.round(ms));
  const [days, hours, minutes] = units.map(([, size]) => {
    const n = Math.floor(rest / size);
    rest -= n * size;
    return n;
  });
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${rest ? `${rest / 1000}S` : ''}`;
  const text = `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
  return text === 'P' ? 'PT0S' : text;
}
