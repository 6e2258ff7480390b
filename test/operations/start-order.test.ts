// startSystem opens the database while it builds the subgraphs and the router (router/system.ts):
// a database that cannot open still fails the start with its own error, and leaves nothing
// listening behind it.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config.ts";
import { startSystem } from "../../router/system.ts";
import { freePort } from "../../bench/lib/ports.ts";

const accepts = (port: number) => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, "127.0.0.1", () => { socket.destroy(); resolve(true); });
  socket.once("error", () => resolve(false));
});

describe("the start, with the database opening beside the graph", () => {
  it("a database that cannot open fails the start with its error, and no port is left listening", async () => {
    const [port, content, extensions, gateway] = [await freePort(), await freePort(), await freePort(), await freePort()];
    const config = loadConfig({ LOG_LEVEL: "silent" }, {
      port, host: "127.0.0.1", databaseUrl: "nowhere:db", subgraphPorts: { content, extensions, gateway },
    });
    await expect(startSystem(config)).rejects.toThrow(/DATABASE_URL must be memory:, file:<dir> or postgres:/);
    expect(await Promise.all([port, content, extensions, gateway].map(accepts))).toEqual([false, false, false, false]);
  });
});
