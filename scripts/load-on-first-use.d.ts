/** From a module whose path ends with `parentSuffix`, each of `requests` loads on first use. */
export function loadOnFirstUse(parentSuffix: string, requests: readonly string[]): void;
