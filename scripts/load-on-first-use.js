// Defers modules a dependency loads at start but uses rarely: `require(name)` from the named file
// answers a stand-in that loads the real module on first use (a property read or `in`), through
// Node's require hook, as OpenTelemetry's own instrumentation hooks requires. CommonJS only.
import Module from "node:module";

/** From a module whose path ends with `parentSuffix`, each of `requests` loads on first use. */
export function loadOnFirstUse(parentSuffix, requests) {
  const deferred = new Set(requests);
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    if (!deferred.has(request) || !parent?.filename?.endsWith(parentSuffix)) return load.call(this, request, parent, isMain);
    let real;
    const module = () => (real ??= load.call(this, request, parent, isMain));
    return new Proxy({}, { get: (_, key) => module()[key], has: (_, key) => key in module() });
  };
}
