// A subgraph's resolvers are written per area; this merges the areas' maps type by type (Post takes
// its fields from posts/ and `featuredMedia` from media/). A field resolved by two areas is a mistake.
export function mergeResolvers<Map extends object>(...maps: Map[]): Map {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const map of maps) {
    for (const [type, fields] of Object.entries(map) as [string, Record<string, unknown>][]) {
      // A scalar is a GraphQLScalarType, not a field map: it is taken whole.
      if (Object.getPrototypeOf(fields) !== Object.prototype) {
        if (type in merged) throw new Error(`${type} is resolved by two areas`);
        merged[type] = fields;
        continue;
      }
      const into = (merged[type] ??= {});
      for (const [field, resolver] of Object.entries(fields)) {
        if (field in into) throw new Error(`${type}.${field} is resolved by two areas`);
        into[field] = resolver;
      }
    }
  }
  return merged as Map;
}
