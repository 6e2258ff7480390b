// Prometheus metrics of one router (GET /metrics): requests by Fastify route pattern, method and
// status; subgraph fetches by subgraph and outcome; the process's default metrics. A registry per
// router, so two routers in one process (tests) never share or clash.
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { FastifyInstance } from "fastify";

/** How a subgraph fetch ended: answered, answered with GraphQL errors, or not answered at all. */
export type FetchOutcome = "ok" | "errors" | "failed";

export interface RouterMetrics {
  registry: Registry;
  observeRequest(labels: { method: string; route: string; status: number }, seconds: number): void;
  /** Times one subgraph fetch and counts it under its outcome. */
  observeFetch<T>(subgraph: string, fetch: () => Promise<T>, outcomeOf: (result: T) => FetchOutcome): Promise<T>;
}

export function createMetrics(): RouterMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requestLabels = ["method", "route", "status"] as const;
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests answered by the router", labelNames: requestLabels, registers });
  const requestSeconds = new Histogram({ name: "http_request_duration_seconds", help: "Time to answer an HTTP request", labelNames: requestLabels, registers });
  const fetchLabels = ["subgraph", "outcome"] as const;
  const fetches = new Counter({ name: "subgraph_fetches_total", help: "Fetches from the router to a subgraph", labelNames: fetchLabels, registers });
  const fetchSeconds = new Histogram({ name: "subgraph_fetch_duration_seconds", help: "Time of one subgraph fetch", labelNames: fetchLabels, registers });
  return {
    registry,
    observeRequest(labels, seconds) {
      requests.inc(labels);
      requestSeconds.observe(labels, seconds);
    },
    async observeFetch(subgraph, fetch, outcomeOf) {
      const started = performance.now();
      let outcome: FetchOutcome = "failed";
      try {
        const result = await fetch();
        outcome = outcomeOf(result);
        return result;
      } finally {
        fetches.inc({ subgraph, outcome });
        fetchSeconds.observe({ subgraph, outcome }, (performance.now() - started) / 1000);
      }
    },
  };
}

/**
 * Counts every answered request under its route pattern (`/wp-json/*`, not the concrete path, so
 * the label set stays bounded; unmatched paths share one label) and serves GET /metrics.
 */
export function registerMetrics(app: FastifyInstance, metrics: RouterMetrics): void {
  app.addHook("onResponse", async (request, reply) => {
    metrics.observeRequest(
      { method: request.method, route: request.routeOptions.url ?? "(unmatched)", status: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });
  app.get("/metrics", async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
}
