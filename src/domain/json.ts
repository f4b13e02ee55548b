/** JSON read where a text may not be JSON (a receiver's answer, a body, a peer's message). */

/** The text's value as JSON, or undefined when it is not JSON (JSON.parse's SyntaxError, the one condition taken). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
}
