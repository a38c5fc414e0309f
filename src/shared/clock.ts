/**
 * The only module that reads the system time (STYLE rule 2). Pure code takes `nowMs` as an
 * argument; shells (commands, runner loops) read a Clock once per tick and pass the value down.
 */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = {
  nowMs: () => Date.now(),
};

/** A clock that only moves when told to: for tests that drive the runner tick by tick. */
export class ManualClock implements Clock {
  constructor(private currentMs: number) {}

  nowMs(): number {
    return this.currentMs;
  }

  set(ms: number): void {
    this.currentMs = ms;
  }

  advance(ms: number): void {
    this.currentMs += ms;
  }
}
