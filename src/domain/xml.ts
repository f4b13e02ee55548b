/** Text and attribute values of XML written by hand (JUnit reports). */
export const escapeXml = (s: string): string =>
  s.replace(/[<>&'"]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[ch] ?? ch);
