// `npm run admin` as an operator runs it: a child process (tsx, as the npm script does) on a
// PGlite data directory, with the server's settings in its environment.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface AdminOutcome { code: number; stdout: string; stderr: string }

/** Runs the admin command against `dataDir`; a non-zero exit is an outcome, not an exception. */
export async function runAdmin(dataDir: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<AdminOutcome> {
  const environment: NodeJS.ProcessEnv = {
    ...process.env, DATA_DIR: dataDir, DATABASE_URL: `file:${path.join(dataDir, "pglite")}`, LOG_LEVEL: "silent", ...env,
  };
  try {
    const { stdout, stderr } = await run(path.resolve("node_modules/.bin/tsx"), ["admin/main.ts", ...args], { env: environment });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as AdminOutcome;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
