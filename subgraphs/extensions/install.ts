// First-start state of the extensions subgraph: the language settings row (Polylang's options
// with their fresh-install defaults). Safe to run on every start.
import type { Database } from "../../lib/db.ts";
import { ensureSettings } from "./languages/language-settings.ts";

export async function installExtensions(db: Database): Promise<void> {
  await ensureSettings(db.prisma);
}
