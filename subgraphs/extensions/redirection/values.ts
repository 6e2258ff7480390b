// The plugin's list rules the REST layer reads too (one source for both): filter keys and
// orderby values of each list route.

export const REDIRECT_FILTERS = ["status", "url-match", "match", "action", "http", "access", "url", "target", "title", "group", "id"];
export const REDIRECT_ORDERBY = ["source", "last_count", "last_access", "position", "id", ""];
export const GROUP_FILTERS = ["status", "module", "name"];
export const GROUP_ORDERBY = ["name", "id", ""];
export const LOG_FILTERS = ["ip", "url-exact", "referrer", "agent", "url", "target", "domain", "method", "http", "redirect_by"];
export const NOT_FOUND_FILTERS = ["ip", "url-exact", "referrer", "agent", "url", "domain", "method", "http"];
export const LOG_ORDERBY = ["url", "ip", "total", "count", ""];
