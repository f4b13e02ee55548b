/** Reads a text/event-stream answer (fetch's) event by event, as a test waits for each. */
export interface Events {
  /** The data of the next event of this name, parsed as JSON (events of other names before it are passed over). */
  next(event: string): Promise<any>;
  close(): Promise<void>;
}

export function events(res: Response): Events {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    async next(event) {
      for (;;) {
        const end = text.indexOf('\n\n');
        if (end >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name === event && data !== undefined) return JSON.parse(data);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before an event ${event}`);
        text += decoder.decode(value, { stream: true });
      }
    },
    close: () => reader.cancel(),
  };
}
