// Where a subgraph finds the subgraphs that own each kind of credential, to check credentials
// forwarded by another router (lib/authenticate.ts asks the owner over HTTP, as our router does,
// so each subgraph keeps its own users' data). Subgraphs started in one process with one Config
// (router/system.ts, ports 0) learn each other's actual URLs as they start listening; a subgraph
// in its own process uses CONTENT_URL / GATEWAY_URL, else the configured ports.
import type { Config } from "./config.ts";

type Name = keyof Config["subgraphPorts"];

const started = new WeakMap<Config, Partial<Record<Name, string>>>();

export function registerSubgraphUrl(config: Config, name: Name, url: string): void {
  started.set(config, { ...started.get(config), [name]: url });
}

export function subgraphUrl(config: Config, name: Name): string {
  return started.get(config)?.[name] ?? config.subgraphUrls?.[name]
    ?? `http://${config.subgraphHost === "0.0.0.0" ? "127.0.0.1" : config.subgraphHost}:${config.subgraphPorts[name]}/graphql`;
}
