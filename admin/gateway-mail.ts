// The email gateway's mail commands of `npm run admin -- gateway …`: ingest a JSON Lines log of
// processed mail (the same path as POST /api/v2/messages/ingest), and bulk purge (seed 001 §8:
// more than 10,000 messages are handled here) in batches with a progress bar, resumable.
import fs from "node:fs";
import readline from "node:readline";
import { Presets, SingleBar } from "cli-progress";
import { InvalidArgumentError, type Command } from "commander";
import { parseDateTime } from "../lib/gateway/collection-rules.ts";
import { checkIngestBatch } from "../lib/gateway/ingest-record.ts";
import { WORKER_RETENTION_DAYS } from "../lib/gateway/appliance.ts";
import { INGEST_LIMITS } from "../lib/gateway/messages.ts";
import { storeMessages, type IngestReport } from "../subgraphs/gateway/mail/ingest.ts";
import { purgeExpiredWorkerMail } from "../subgraphs/gateway/mail/retention.ts";
import { purgeJob, purgeNextBatch, startPurge, unfinishedPurge, type PurgeCriteria } from "../subgraphs/gateway/mail/purge.ts";
import { withOperator } from "./operator.ts";

const print = (line: string) => process.stdout.write(`${line}\n`);
const warn = (line: string) => process.stderr.write(`${line}\n`);

function bar(title: string, total: number): SingleBar {
  const b = new SingleBar({
    format: `${title} [{bar}] {percentage}% | {value}/{total}`,
    stream: process.stderr, noTTYOutput: true, notTTYSchedule: 1000, hideCursor: true,
  }, Presets.shades_classic);
  b.start(total, 0);
  return b;
}

/** Reads a JSON Lines file (one message record a line; blank lines skipped), storing it in batches. */
export async function ingestFile(path: string, store: (records: unknown[], lineNumbers: number[]) => Promise<{ report: IngestReport; rejected: { line: number; messages: string[] }[] }>, batchSize: number = INGEST_LIMITS.batch) {
  const total = fs.statSync(path).size;
  const progress = bar("Ingesting", total);
  const input = fs.createReadStream(path, { encoding: "utf8" });
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  const sum: IngestReport = { ingested: 0, duplicates: 0, accountedDeliveries: 0, restrictedSenders: 0 };
  const rejected: { line: number; messages: string[] }[] = [];
  let batch: unknown[] = [];
  let batchLines: number[] = [];
  let lineNo = 0;
  const flush = async () => {
    if (!batch.length) return;
    const result = await store(batch, batchLines);
    for (const key of Object.keys(sum) as (keyof IngestReport)[]) sum[key] += result.report[key];
    rejected.push(...result.rejected);
    batch = [];
    batchLines = [];
  };
  for await (const line of lines) {
    lineNo++;
    progress.update(Math.min(total, input.bytesRead));
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      rejected.push({ line: lineNo, messages: ["not valid JSON"] });
      continue;
    }
    batch.push(record);
    batchLines.push(lineNo);
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  progress.update(total);
  progress.stop();
  return { report: sum, rejected, lines: lineNo };
}

const dateArg = (value: string): string => {
  const date = parseDateTime(value);
  if (!date) throw new InvalidArgumentError("Not an RFC 3339 date-time or YYYY-MM-DD.");
  return date.toISOString();
};

/** Registers `gateway ingest` and `gateway purge` on the admin command's `gateway` command. */
export function registerGatewayMailCommands(gateway: Command): void {
  gateway.command("ingest")
    .description("Ingest processed mail from a JSON Lines log (one message record a line). Invalid records (an address over 254 characters…) are refused and reported with their line; the rest is stored. Replaying a log adds nothing.")
    .argument("<file>", "the .jsonl file")
    .action((file: string) => withOperator(async (op) => {
      const ctx = op.gateway();
      const result = await ingestFile(file, async (records, lineNumbers) => {
        const { records: good, rejected } = checkIngestBatch(records);
        const report = await storeMessages(ctx, good);
        return {
          report,
          rejected: rejected.map((r) => ({ line: lineNumbers[r.index], messages: r.violations.map((v) => `${v.propertyPath.replace(/^\[\d+\]\.?/, "")}: ${v.message}`) })),
        };
      });
      for (const r of result.rejected) warn(`Line ${r.line} refused: ${r.messages.join("; ")}`);
      print(`Ingested ${result.report.ingested} message(s) (${result.report.duplicates} already present, ${result.rejected.length} refused); ${result.report.accountedDeliveries} deliveries accounted, ${result.report.restrictedSenders} sender(s) newly restricted.`);
      if (result.rejected.length) process.exitCode = 1;
    }));

  gateway.command("purge")
    .description("Purge messages in batches with a progress bar; an interrupted purge resumes where it stopped (run the same command again, or --resume <job>).")
    .option("--before <date>", "messages received before this date-time (RFC 3339 or YYYY-MM-DD)", dateArg)
    .option("--quarantined", "only messages in quarantine")
    .option("--result <verdict>", "only messages with this verdict (clean, spam, virus, phishing, blocked)")
    .option("--resume <job>", "resume this purge job", (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("Not a job id.");
      return n;
    })
    .option("--batch-size <n>", "messages per batch (default 1000)", (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new InvalidArgumentError("1 to 10000.");
      return n;
    })
    .option("--yes", "purge without asking (needed when stdin is not a terminal)")
    .action((o: { before?: string; quarantined?: boolean; result?: string; resume?: number; batchSize?: number; yes?: boolean }) => withOperator(async (op) => {
      const ctx = op.gateway();
      const criteria: PurgeCriteria = {};
      if (o.before) criteria.before = o.before;
      const filter: NonNullable<PurgeCriteria["filter"]> = {};
      if (o.quarantined) filter.quarantined = [{ operator: "eq", value: "true" }];
      if (o.result) filter.result = [{ operator: "eq", value: o.result }];
      if (Object.keys(filter).length) criteria.filter = filter;
      if (!o.resume && !o.before && !criteria.filter) throw new InvalidArgumentError("Give --before, --quarantined or --result (or --resume <job>): purging everything needs --before.");
      let job = o.resume ? await purgeJob(ctx, o.resume) : await unfinishedPurge(ctx, criteria) ?? await startPurge(ctx, criteria);
      if (job.state === "done") { print(`Purge job ${job.id} is already done (${job.purged} purged).`); return; }
      if (job.purged > 0) print(`Resuming purge job ${job.id}: ${job.purged} of ${job.total} already purged.`);
      else print(`Purge job ${job.id}: ${job.total} message(s) selected.`);
      if (!o.yes && !process.stdin.isTTY) throw new InvalidArgumentError("Not a terminal: add --yes to purge.");
      const progress = bar("Purging", Math.max(job.total, job.purged));
      progress.update(job.purged);
      for (;;) {
        const step = await purgeNextBatch(ctx, job, o.batchSize);
        job = step.job;
        if (job.purged > progress.getTotal()) progress.setTotal(job.purged);
        progress.update(job.purged);
        if (job.state === "done") break;
      }
      progress.stop();
      print(`Purged ${job.purged} message(s) (job ${job.id}).`);
    }));

  gateway.command("retention")
    .description(`Delete mail stored on worker nodes for more than ${WORKER_RETENTION_DAYS} days (seed 001 §8); message reads do it too. For cron.`)
    .action(() => withOperator(async (op) => {
      print(`${await purgeExpiredWorkerMail(op.gateway())} message(s) past worker retention deleted.`);
    }));
}
