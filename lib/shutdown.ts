// What `docker stop` and Ctrl-C expect: on SIGTERM or SIGINT stop taking requests, let the ones in
// flight finish, close servers and the database, then exit 0. Handlers are installed once each, so
// a second signal meets Node's default and ends the process at once (the way out of a stuck drain).
export function stopOnSignals(stop: () => Promise<void>, print: (line: string) => void = () => {}): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    print(`${signal}: finishing requests in flight, then stopping.`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => { console.error("Stopping failed:", error); process.exit(1); },
    );
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}
