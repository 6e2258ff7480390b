// Group commit (lib/group-commit.ts): creates that arrive while one is being written share the next
// transaction, each answered as if written alone, in arrival order.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroupCommit } from "../../lib/group-commit.ts";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

describe("GroupCommit", () => {
  /** A writer that records its groups and finishes when told to. */
  const recorder = (failOn?: string) => {
    const groups: string[][] = [];
    const pending: (() => void)[] = [];
    const commit = new GroupCommit<string, string>(async (jobs) => {
      groups.push(jobs);
      await new Promise<void>((resolve) => pending.push(resolve));
      if (failOn && jobs.includes(failOn)) throw new Error(`failed ${failOn}`);
      return jobs.map((job) => `written ${job}`);
    }, (job) => job.length, 4);
    const finish = async () => { while (pending.length) { pending.shift()!(); await new Promise((r) => setTimeout(r, 0)); } };
    return { commit, groups, finish };
  };

  it("writes the first job at once, and the jobs that arrive meanwhile together next, in order, within the weight", async () => {
    const { commit, groups, finish } = recorder();
    const answers = ["a", "b", "c", "dd", "e"].map((job) => commit.add(job));
    await finish();
    expect(await Promise.all(answers)).toEqual(["written a", "written b", "written c", "written dd", "written e"]);
    expect(groups).toEqual([["a"], ["b", "c", "dd"], ["e"]]);
  });

  it("fails every job of a failed group with its error, and only those", async () => {
    const { commit, groups, finish } = recorder("c");
    const answers = ["a", "b", "c", "dddd"].map((job) => commit.add(job).catch((error: Error) => error.message));
    await finish();
    expect(groups).toEqual([["a"], ["b", "c"], ["dddd"]]);
    expect(await Promise.all(answers)).toEqual(["written a", "failed c", "failed c", "written dddd"]);
  });
});

describe("GroupCommit, when a group is written and more jobs wait", () => {
  it("sends the next group's transaction before the written group's writers get their answers", async () => {
    const events: string[] = [];
    const pending: (() => void)[] = [];
    const commit = new GroupCommit<string, string>(async (jobs) => {
      // A transaction's first statement leaves after a few asynchronous steps (Prisma's, the adapter's).
      for (let step = 0; step < 5; step++) await null;
      events.push(`sent ${jobs.join(" ")}`);
      await new Promise<void>((resolve) => pending.push(resolve));
      return jobs.map((job) => `written ${job}`);
    }, () => 1, 10);
    const settled = (job: string) => commit.add(job).then((answer) => { events.push(`answered ${job}`); return answer; });
    const first = settled("a");
    await new Promise((resolve) => setImmediate(resolve));
    const waiting = [settled("b"), settled("c")];
    pending.shift()!();
    expect(await first).toBe("written a");
    expect(events).toEqual(["sent a", "sent b c", "answered a"]);
    pending.shift()!();
    expect(await Promise.all(waiting)).toEqual(["written b", "written c"]);
    expect(events).toEqual(["sent a", "sent b c", "answered a", "answered b", "answered c"]);
  });
});

describe("simultaneous REST creates", () => {
  let s: TestSystem;
  beforeAll(async () => { s = await startTestSystem(); });
  afterAll(() => s?.stop());

  const create = (title: string) => s.request("POST", "/wp-json/core/v2/posts", { auth: "admin", body: { title, status: "publish", categories: [1] } });

  it("share transactions, and each is answered as written alone, its slug suffixed in arrival order", async () => {
    await create("Warm-up");
    // Transactions are counted by their COMMIT, as each database's client reports it.
    let commits = 0;
    s.db.prisma.$on("query" as never, (event: { query: string }) => { if (/\bCOMMIT\b/.test(event.query)) commits++; });
    const answers = await Promise.all(Array.from({ length: 10 }, () => create("Grouped Title")));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    expect(answers.map((a) => a.body.slug as string).sort()).toEqual(["grouped-title", ...Array.from({ length: 9 }, (_, i) => `grouped-title-${i + 2}`)].sort());
    // Suffixes follow arrival order, as ids do.
    const byId = [...answers].sort((a, b) => a.body.id - b.body.id).map((a) => a.body.slug);
    expect(byId).toEqual(["grouped-title", ...Array.from({ length: 9 }, (_, i) => `grouped-title-${i + 2}`)]);
    expect(answers.map((a) => a.body.categories)).toEqual(Array(10).fill([1]));
    // Written one by one, 10 creates would commit 10 transactions.
    expect(commits).toBeLessThanOrEqual(5);
    const listed = await s.request("GET", "/wp-json/core/v2/posts?search=Grouped%20Title&per_page=20");
    expect(listed.body.map((p: { id: number }) => p.id).sort()).toEqual(answers.map((a) => a.body.id).sort());
  });
});
