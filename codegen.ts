// GraphQL Code Generator: resolver types for each subgraph (federation on; parents are Prisma
// rows). Output goes to generated/ (git-ignored, rebuilt by `npm install` / `npm run build`).
import type { CodegenConfig } from "@graphql-codegen/cli";

const subgraph = (name: string, mappers: Record<string, string> = {}) => ({
  [`generated/graphql/${name}-resolvers.ts`]: {
    schema: name === "content" ? "subgraphs/content/schema/*.graphql" : `subgraphs/${name}/schema.graphql`,
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
  generates: {
    ...subgraph("content", {
      Post: "../prisma/client.ts#Post",
      Page: "../prisma/client.ts#Post",
      Site: "../../subgraphs/content/site.ts#SiteSummary",
      MediaItem: "../prisma/client.ts#Post",
      Revision: "../prisma/client.ts#Post",
      User: "../prisma/client.ts#User",
      Category: "../prisma/client.ts#Term",
      Tag: "../prisma/client.ts#Term",
      MenuItem: "../../subgraphs/content/menu-items.ts#MenuItemView",
      Menu: "../../subgraphs/content/menus.ts#MenuRow",
    }),
    ...subgraph("extensions", {
      Language: "../../subgraphs/extensions/language-view.ts#LanguageView",
      LanguageSettings: "../../subgraphs/extensions/language-settings.ts#SettingsValues",
    }),
    ...subgraph("gateway", { AccountedEmail: "../prisma/client.ts#AccountedEmail" }),
  },
};

export default config;
