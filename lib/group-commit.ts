// Group commit: writes that arrive while one is in progress wait for it, then go to the database
// together, as one transaction. PGlite runs one transaction at a time, so the wait costs nothing a
// lone write would not have waited anyway, and a transaction's fixed cost (its locks, its reads,
// each statement's round trip, its commit) is paid once per group instead of once per write. The
// jobs of a group are written in arrival order.

export class GroupCommit<Job, Result> {
  private waiting: { job: Job; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  private writing = false;

  /**
   * `write` writes a group and answers one result per job, in order; if it throws, every job of the
   * group fails with that error. A group holds jobs of at most `maxWeight` in all (one heavier job
   * is a group of its own).
   */
  constructor(
    private readonly write: (jobs: Job[]) => Promise<Result[]>,
    private readonly weight: (job: Job) => number,
    private readonly maxWeight: number,
  ) {}

  add(job: Job): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ job, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length) {
        let weight = 0;
        let size = 0;
        while (size < this.waiting.length && (size === 0 || weight + this.weight(this.waiting[size].job) <= this.maxWeight)) {
          weight += this.weight(this.waiting[size].job);
          size++;
        }
        const group = this.waiting.splice(0, size);
        let answer: (i: number) => void;
        try {
          const results = await this.write(group.map((w) => w.job));
          answer = (i) => group[i].resolve(results[i]);
        } catch (error) {
          answer = (i) => group[i].reject(error);
        }
        // What a writer does with its answer (a batch's 25 posts shaped for GraphQL and REST) is
        // work on this thread, which the next transaction's statements wait for between their round
        // trips. With jobs waiting, the next transaction is sent first and the writers are answered
        // one per event-loop turn, so each round trip waits for one writer's work at most, not a
        // group's (bench/README.md "Group commit: writers answered one per turn").
        if (!this.waiting.length) group.forEach((_, i) => answer(i));
        else {
          let i = 0;
          const next = () => { answer(i); if (++i < group.length) setImmediate(next); };
          setImmediate(next);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
