/**
 * Who may write at a time. Work on one account is serialized (a handler's check and its write are
 * never split by another request of the account, across any number of awaits); work on the whole
 * state (reset, restore, removing an account) waits for every account's work to finish and holds
 * new work back until it is done.
 */
export type Release = () => void;

export class Locks {
  private readonly tails = new Map<string, Promise<void>>();
  /** Account locks held or waiting; whole-state work waits for them to drain. */
  private held = 0;
  private drained: (() => void)[] = [];
  /** Closed while whole-state work waits or runs. */
  private gate: Promise<void> = Promise.resolve();

  /** Waits for the account's earlier work (and any whole-state work), then holds the account. */
  async account(id: string): Promise<Release> {
    for (;;) {
      const gate = this.gate;
      await gate;
      if (gate === this.gate) break;
    }
    this.held++;
    const previous = this.tails.get(id) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(id, tail);
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
      if (this.tails.get(id) === tail) this.tails.delete(id);
      if (--this.held === 0) for (const done of this.drained.splice(0)) done();
    };
  }

  /** Waits until no account work runs, then holds everything until released. */
  async global(): Promise<Release> {
    const before = this.gate;
    let open!: () => void;
    const closed = new Promise<void>((resolve) => (open = resolve));
    // whole-state work runs one at a time, in the order it asked
    this.gate = before.then(() => closed);
    await before;
    if (this.held > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open();
    };
  }
}
