// Long jobs of the admin command: one item at a time (a PGlite database serves one connection),
// a progress bar on stderr (also when stderr is not a terminal, so `docker logs` and CI show it),
// and a summary. A failing item is reported and the job goes on; the caller decides the exit code.
// Any bulk job (pruning passwords, the later bulk purge) is a list of items and one async step.
import { SingleBar, Presets } from "cli-progress";

export interface JobReport<Item> { done: number; failed: { item: Item; error: Error }[] }

export interface JobOptions {
  /** Where the bar is drawn; stderr keeps stdout for results. */
  stream?: NodeJS.WritableStream;
}

export async function runJob<Item>(
  title: string, items: readonly Item[], step: (item: Item) => Promise<void>, options: JobOptions = {},
): Promise<JobReport<Item>> {
  const stream = options.stream ?? process.stderr;
  const bar = new SingleBar({
    format: `${title} [{bar}] {percentage}% | {value}/{total}`,
    stream, noTTYOutput: true, notTTYSchedule: 1000, hideCursor: true,
  }, Presets.shades_classic);
  const report: JobReport<Item> = { done: 0, failed: [] };
  bar.start(items.length, 0);
  for (const item of items) {
    try {
      await step(item);
      report.done++;
    } catch (error) {
      report.failed.push({ item, error: error instanceof Error ? error : new Error(String(error)) });
    }
    bar.increment();
  }
  bar.stop();
  return report;
}
