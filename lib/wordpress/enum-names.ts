// WordPress's value sets (statuses, formats, menu item types) are GraphQL enums whose names are the
// values spelled as GraphQL names; the subgraph's enum resolvers and the REST layer's conversions
// both derive from this one spelling rule.

/** WordPress's value as the graph's enum value name: `auto-draft` → AUTO_DRAFT. */
export const enumName = (value: string): string => value.toUpperCase().replace(/-/g, "_");
