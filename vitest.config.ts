import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own system on ephemeral ports; two cores, so two at a time.
    maxWorkers: 2,
    env: { APOLLO_TELEMETRY_DISABLED: "1" },
  },
});
