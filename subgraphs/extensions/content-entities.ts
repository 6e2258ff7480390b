// The content subgraph's entities as this subgraph holds them: their database id (the key
// schema.graphql declares). Resolvers of the fields each area adds (language, translations, seo…)
// receive this and return it for entities they point at; the gateway fetches the rest from content.
export interface ContentEntityRef { databaseId: number }

/** An object named by its type and database id (TranslatedObject). */
export interface TypedObjectRef { objectType: "POST" | "PAGE" | "NAV_MENU_ITEM" | "CATEGORY" | "POST_TAG"; databaseId: number }
