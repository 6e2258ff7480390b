// What `docker stop` and Ctrl-C expect: on SIGTERM or SIGINT stop taking requests, let the ones in
// flight finish, close servers and the database, then exit 0. Handlers are installed once each, so
// a second signal meets Node's default and ends the process at once (the way out of a stuck drain).
// The returned function starts the same stop for another reason (a cluster worker told by its primary).
export function stopOnSignals(
  stop: () => Promise<void>, print: (line: string) => void = () => {}, signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT"],
): (reason: string) => void {
  let stopping = false;
  const stopFor = (reason: string) => {
    if (stopping) return;
    stopping = true;
    print(`${reason}: finishing requests in flight, then stopping.`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => { console.error("Stopping failed:", error); process.exit(1); },
    );
  };
  for (const signal of signals) process.once(signal, stopFor);
  return stopFor;
}
