/** Live answers (server-sent events): headers first, then a bounded writer that ends with the caller or the server. */
import type { Response } from 'express';
import type { StreamWriter } from '../handling/handler.js';
import type { Runtime } from '../runtime.js';

/** A live answer whose caller has this much unread is ended (it may reconnect): nothing grows without bound. */
const STREAM_BUFFER_BYTES = 1024 * 1024;

/** Sends a live answer's headers and hands its writer to `stream`; the journal keeps no body of it. */
export function openStream(runtime: Runtime, res: Response, stream: (out: StreamWriter) => void): void {
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
  const heartbeat = setInterval(() => writer.write(': still here\n\n'), runtime.limits.streamKeepaliveMs);
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
  runtime.streams.add(end);
  closers.push(() => runtime.streams.delete(end));
  stream(writer);
}
