// scripts/load-on-first-use.js (npm start defers @apollo/gateway's usage-reporting modules with it):
// a deferred module is not loaded with the module that requires it, and loads, once, when first used.
import { createRequire } from "node:module";
import path from "node:path";
import { expect, test } from "vitest";
import { loadOnFirstUse } from "../../scripts/load-on-first-use.js";

const counter = globalThis as { heavyLoads?: number };

test("a deferred require loads the real module on first use only, for the named module alone", () => {
  const fixtures = path.join(import.meta.dirname, "../fixtures/load-on-first-use");
  loadOnFirstUse(path.join("load-on-first-use", "user.cjs"), ["./heavy.cjs"]);
  const require = createRequire(path.join(fixtures, "test.cjs"));
  const user = require("./user.cjs") as { use(): number; has(): boolean };
  expect(counter.heavyLoads ?? 0).toBe(0);
  expect(user.use()).toBe(42);
  expect(user.has()).toBe(true);
  expect(counter.heavyLoads).toBe(1);
  // Required from anywhere else, the module loads as always (once: Node's cache).
  expect((require("./heavy.cjs") as { answer: number }).answer).toBe(42);
  expect(counter.heavyLoads).toBe(1);
});
