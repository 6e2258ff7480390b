// Compiles the servers to JavaScript in dist/ with esbuild: one bundle per process entry point,
// our TypeScript inlined, npm packages left as imports. Starting from JavaScript instead of
// loading ~400 TypeScript files through tsx is what makes a cold start fast (issue 12).
// `node scripts/build.js` builds; scripts/start.js rebuilds first when a source is newer.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DIST = path.join(ROOT, "dist");
/** When the last build started and what it read (esbuild's metafile inputs), to tell when it is stale. */
const INPUTS = path.join(DIST, "inputs.json");

/** dist/<name>.js for each process npm starts. */
export const ENTRY_POINTS = {
  router: "router/main.ts",
  content: "subgraphs/content/main.ts",
  extensions: "subgraphs/extensions/main.ts",
  gateway: "subgraphs/gateway/main.ts",
};

/**
 * Modules read files beside themselves (a subgraph's *.graphql, prisma/migrations, …) through
 * import.meta.url. Inside a bundle that would be the bundle's address, so each module's
 * import.meta.url is rewritten to its source file's address, relative to dist/: the files are
 * read from the source tree, never copied.
 */
const sourceUrls = {
  name: "source-urls",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await fs.promises.readFile(args.path, "utf8");
      if (!source.includes("import.meta.url")) return { contents: source, loader: "ts" };
      const relative = path.relative(DIST, args.path).split(path.sep).join("/");
      return { contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(relative)}, import.meta.url).href`), loader: "ts" };
    });
  },
};

export async function build() {
  const esbuild = await import("esbuild");
  const startedAt = Date.now();
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(ENTRY_POINTS).map(([out, entry]) => ({ in: entry, out })),
    outdir: DIST,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    metafile: true,
    write: false,
    logLevel: "warning",
    plugins: [sourceUrls],
  });
  // esbuild's service process would otherwise live (and hold ~150 MB) as long as the server.
  await esbuild.stop();
  fs.mkdirSync(DIST, { recursive: true });
  // Each file replaced in one rename: a server starting meanwhile reads the old build or the new.
  for (const file of result.outputFiles) {
    fs.writeFileSync(`${file.path}.${process.pid}`, file.contents);
    fs.renameSync(`${file.path}.${process.pid}`, file.path);
  }
  const sources = Object.keys(result.metafile.inputs).filter((file) => !file.includes("node_modules/"));
  fs.writeFileSync(INPUTS, JSON.stringify({ startedAt, sources }));
}

/** True when there is no build or a file it was built from has changed since (or is gone). */
export function isStale() {
  let built;
  try { built = JSON.parse(fs.readFileSync(INPUTS, "utf8")); } catch { return true; }
  return built.sources.some((file) => {
    try { return fs.statSync(path.join(ROOT, file)).mtimeMs >= built.startedAt; } catch { return true; }
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await build();
