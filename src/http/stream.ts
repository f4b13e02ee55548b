/** Live answers (server-sent events): headers first, then a bounded writer that ends with the caller or the server. */
import type { Call } from './call.js';
import type { StreamWriter } from '../handling/handler.js';
import type { Pipeline } from './pipeline.js';

/** A live answer whose caller has this much unread is ended (it may reconnect): nothing grows without bound. */
const STREAM_BUFFER_BYTES = 1024 * 1024;

/** Sends a live answer's headers and hands its writer to `stream`; the journal keeps no body of it. */
export function openStream(p: Pipeline, call: Call, stream: (out: StreamWriter) => void): void {
  const res = call.res;
  res.status(200).set({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  const closers: (() => void)[] = [];
  let open = true;
  const end = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    for (const fn of closers) fn();
    res.end();
  };
  // a comment line now and then keeps the connection (and any proxy on the way) open
  const heartbeat = setInterval(() => writer.write(': still here\n\n'), p.runtime.limits.streamKeepaliveMs);
  heartbeat.unref();
  const writer: StreamWriter = {
    write(chunk) {
      if (!open) return false;
      if (res.writableLength > STREAM_BUFFER_BYTES) {
        end();
        return false;
      }
      res.write(chunk);
      return true;
    },
    onClose: (fn) => closers.push(fn),
    end,
  };
  res.on('close', end);
  p.runtime.streams.add(end);
  closers.push(() => p.runtime.streams.delete(end));
  stream(writer);
}
