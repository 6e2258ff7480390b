// What Redirection needs from the outside world, in one object tests replace: the clock
// (last_access, log rows, export headers, `$dec$`/`$hex$` auto targets), the random pick of the
// `random` action, and the HTTP client of `pass` to an external URL.

export interface RedirectionEnvironment {
  now(): Date;
  /** A number in [0, 1). */
  random(): number;
  fetch(url: string): Promise<{ status: number; body: string; contentType: string }>;
}

const realEnvironment: RedirectionEnvironment = {
  now: () => new Date(),
  random: () => Math.random(),
  fetch: async (url) => {
    const response = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: await response.text(), contentType: response.headers.get("content-type") ?? "text/html" };
  },
};

/** The environment in use; tests assign its members (and call `resetRedirectionEnvironment`). */
export const redirectionEnvironment: RedirectionEnvironment = { ...realEnvironment };

export function resetRedirectionEnvironment(): void {
  Object.assign(redirectionEnvironment, realEnvironment);
}
