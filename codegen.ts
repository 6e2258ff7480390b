// GraphQL Code Generator: typed documents for the REST layers' operations, and resolver types for
// each subgraph (federation on; parents are Prisma rows). Output goes to generated/ (git-ignored, rebuilt by `npm install` / `npm run build`).
import type { CodegenConfig } from "@graphql-codegen/cli";

const subgraph = (name: string, mappers: Record<string, string> = {}) => ({
  [`generated/graphql/${name}-resolvers.ts`]: {
    schema: `subgraphs/${name}/**/*.graphql`,
    plugins: ["typescript", "typescript-resolvers"],
    config: {
      federation: true,
      useIndexSignature: true,
      contextType: `../../subgraphs/${name}/index.ts#${name[0].toUpperCase()}${name.slice(1)}Context`,
      mappers,
      mapperTypeSuffix: "Row",
      useTypeImports: true,
      enumsAsTypes: true,
    },
  },
});

const config: CodegenConfig = {
  overwrite: true,
  ignoreNoDocuments: true,
  generates: {
    // The REST layers' operations, typed against the public graph (written by router/write-api-schema.ts):
    // a field renamed in a subgraph schema fails `npm run typecheck` at the route that selects it.
    "generated/graphql/operations.ts": {
      schema: "generated/graphql/api-schema.graphql",
      documents: ["router/rest/**/*.graphql"],
      plugins: ["typescript-operations", "typed-document-node"],
      config: { useTypeImports: true, enumsAsTypes: true, skipTypename: true, avoidOptionals: { field: true, inputValue: false, object: true }, scalars: { DateTime: "string" } },
    },
    ...subgraph("content", {
      Post: "../prisma/client.ts#Post",
      Page: "../prisma/client.ts#Post",
      Site: "../../subgraphs/content/site/site.ts#SiteSummary",
      SiteSettings: "../../subgraphs/content/site/site-settings.ts#SiteSettings",
      MediaItem: "../prisma/client.ts#Post",
      Revision: "../prisma/client.ts#Post",
      User: "../prisma/client.ts#User",
      ApplicationPassword: "../prisma/client.ts#ApplicationPassword",
      Category: "../prisma/client.ts#Term",
      Tag: "../prisma/client.ts#Term",
      MenuItem: "../../subgraphs/content/menus/menu-items.ts#MenuItemView",
      Menu: "../../subgraphs/content/menus/menus.ts#MenuRow",
    }),
    ...subgraph("extensions", {
      Language: "../../subgraphs/extensions/languages/language-view.ts#LanguageView",
      LanguageSettings: "../../subgraphs/extensions/languages/language-settings.ts#SettingsValues",
      Form: "../../subgraphs/extensions/forms/forms.ts#FormView",
      ...Object.fromEntries(["Post", "Page", "MenuItem", "Category", "Tag"].map((t) => [t, "../../subgraphs/extensions/content-entities.ts#ContentEntityRef"])),
      TranslatedObject: "../../subgraphs/extensions/content-entities.ts#TypedObjectRef",
    }),
    ...subgraph("gateway", {
      AccountedEmail: "../prisma/client.ts#AccountedEmail",
      Message: "../../subgraphs/gateway/mail/messages.ts#MessageView",
      EmailAddress: "../../subgraphs/gateway/addresses/resolvers.ts#AddressRef",
      RestrictedSender: "../prisma/client.ts#GatewayRestrictedSender",
    }),
  },
};

export default config;
