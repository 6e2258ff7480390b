// Site options are read by nearly every request; on PGlite (one process writes the data directory)
// they are kept across requests until this process writes anything (subgraphs/content/site/site.ts
// siteOptions), so a write, committed or rolled back, shows on the very next read.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSystem, type TestSystem } from "../helpers/system.ts";

let s: TestSystem;
beforeAll(async () => { s = await startTestSystem(); });
afterAll(() => s?.stop());

const siteName = async () => {
  const response = await s.request("GET", "/wp-json/");
  expect(response.status).toBe(200);
  return (response.body as { name: string }).name;
};

describe("site options kept across requests", () => {
  it.skipIf(process.env.DATABASE_URL?.startsWith("postgres"))("are read once, not on every request, while nothing is written (PGlite)", async () => {
    await siteName();
    const before = s.db.statements();
    await siteName();
    const cached = s.db.statements() - before;
    await s.db.prisma.option.count(); // a read: the kept options stay
    const again = s.db.statements();
    await siteName();
    expect(s.db.statements() - again).toBe(cached);
    // Any write makes the next request read them again.
    await s.db.prisma.option.upsert({ where: { name: "unrelated" }, create: { name: "unrelated", value: 1 }, update: { value: 2 } });
    const afterWrite = s.db.statements();
    await siteName();
    expect(s.db.statements() - afterWrite).toBe(cached + 1);
  });

  it("show a settings change on the next read, and not a refused one", async () => {
    const changed = await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { title: "Kept Options Site" } });
    expect(changed.status).toBe(200);
    expect(await siteName()).toBe("Kept Options Site");
    const refused = await s.request("POST", "/wp-json/core/v2/settings", { auth: "admin", body: { title: "Never Shown", posts_per_page: "many" } });
    expect(refused.status).toBe(400);
    expect(await siteName()).toBe("Kept Options Site");
  });

  it("show a change written directly on the next read, and never one rolled back", async () => {
    await s.db.prisma.option.upsert({ where: { name: "blogname" }, create: { name: "blogname", value: "Direct" }, update: { value: "Direct" } });
    expect(await siteName()).toBe("Direct");
    await s.db.prisma.$transaction(async (tx) => {
      await tx.option.update({ where: { name: "blogname" }, data: { value: "Rolled Back" } });
      throw new Error("undo");
    }).catch(() => {});
    expect(await siteName()).toBe("Direct");
  });

  it("answer a read that arrives while a change is being written with the change, once committed", async () => {
    let read: Promise<string> | undefined;
    await s.db.prisma.$transaction(async (tx) => {
      await tx.option.update({ where: { name: "blogname" }, data: { value: "Committed" } });
      read = siteName();
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    // PGlite runs the read after the transaction; PostgreSQL reads what was committed when it asked.
    expect(["Direct", "Committed"]).toContain(await read);
    expect(await siteName()).toBe("Committed");
  });
});
