/**
 * A strict reading of a MIME message or an XML document, by parsers nobody here wrote: Python's
 * `email` package with its strict policy (every defect raised: an address without a domain, an
 * obsolete date, a Content-ID that is no msg-id) and `xml.etree`. Each answers the problems found.
 */
import { spawnSync } from 'node:child_process';

const EMAIL = `
import email, email.policy, json, sys
problems = []
try:
    msg = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.strict)
    for part in msg.walk():
        problems += [repr(d) for d in part.defects]
        for name, value in part.items():
            problems += [f"{name}: {d!r}" for d in getattr(value, "defects", [])]
        if not part.is_multipart():
            part.get_content()
except Exception as e:
    problems.append(f"{type(e).__name__}: {e}")
print(json.dumps(problems))
`;

const XML = `
import json, sys, xml.etree.ElementTree as ET
try:
    root = ET.fromstring(sys.stdin.buffer.read())
    print(json.dumps({"problems": [], "text": root.findtext("text")}))
except Exception as e:
    print(json.dumps({"problems": [f"{type(e).__name__}: {e}"], "text": None}))
`;

function python(script: string, input: string | Buffer): string {
  const run = spawnSync('python3', ['-c', script], { input, encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return run.stdout;
}

/** The defects Python's strict email policy finds in a message, none for a sound one. */
export const emailDefects = (raw: string | Buffer): string[] => JSON.parse(python(EMAIL, raw)) as string[];

/** What xml.etree makes of a document: its problems, and the text of its `text` element. */
export const xmlRead = (doc: string | Buffer): { problems: string[]; text: string | null } =>
  JSON.parse(python(XML, doc)) as { problems: string[]; text: string | null };
