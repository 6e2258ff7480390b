// Thin resolvers of the site: its identity (REST index), what it registers (post types, statuses,
// taxonomies) and its settings.
import type { Resolvers } from "../../../generated/graphql/content-resolvers.ts";
import type { Viewer } from "../permissions.ts";
import { canEditPostsOf, isViewable, listPostTypes, readPostType, type PostTypeRegistration } from "./post-type-registry.ts";
import { listPostStatuses, readPostStatus, type PostStatusRegistration } from "./post-status-registry.ts";
import { readSiteSettings, updateSiteSettings } from "./site-settings.ts";
import type { SiteSummary } from "./site.ts";
import { listTaxonomies, readTaxonomy, type TaxonomyRegistration } from "./taxonomy-registry.ts";

const labels = (entries: [string, string | null][]) => entries.map(([key, value]) => ({ key, value }));
const capabilities = (entries: [string, string][]) => entries.map(([key, capability]) => ({ key, capability }));
const label = (entries: [string, string | null][], key: string) => entries.find(([k]) => k === key)?.[1] ?? "";

function postType(t: PostTypeRegistration, viewer: Viewer | null) {
  return {
    slug: t.slug, name: label(t.labels, "name"), description: t.description, hierarchical: t.hierarchical, hasArchive: t.hasArchive,
    icon: t.icon, taxonomies: t.taxonomies, restBase: t.restBase, restNamespace: t.restNamespace, viewable: isViewable(t),
    supports: t.supports, capabilities: capabilities(t.capabilities), labels: labels(t.labels),
    visibility: { showUi: t.showUi, showInNavMenus: t.showInNavMenus }, viewerCanEdit: canEditPostsOf(viewer, t),
  };
}

const postStatus = (s: PostStatusRegistration) => ({
  slug: s.slug, name: s.label, private: s.private, protected: s.protected, public: s.public,
  queryable: s.queryable, showInList: s.showInList, dateFloating: s.dateFloating,
});

const taxonomy = (t: TaxonomyRegistration) => ({
  slug: t.slug, name: label(t.labels, "name"), description: t.description, types: t.types, hierarchical: t.hierarchical,
  restBase: t.restBase, restNamespace: t.restNamespace, showCloud: t.showCloud,
  capabilities: capabilities(t.capabilities), labels: labels(t.labels), visibility: t.visibility,
});

export const siteResolvers: Resolvers = {
  Query: {
    site: async (_, __, ctx) => {
      const { options, home } = await ctx.site();
      return {
        name: options.blogname, description: options.blogdescription, url: home, home,
        gmtOffset: String(options.gmt_offset), timezoneString: options.timezone_string,
        logoId: options.site_logo ?? 0, iconId: options.site_icon ?? 0,
      };
    },
    postTypes: (_, args, ctx) => listPostTypes(ctx.viewer, args.editing ?? false).map((t) => postType(t, ctx.viewer)),
    postType: (_, args, ctx) => postType(readPostType(ctx.viewer, args.name, args.editing ?? false), ctx.viewer),
    postStatuses: (_, args, ctx) => listPostStatuses(ctx.viewer, args.editing ?? false).map(postStatus),
    postStatus: (_, args, ctx) => postStatus(readPostStatus(ctx.viewer, args.name)),
    taxonomies: (_, args, ctx) => listTaxonomies(ctx.viewer, args.postType, args.editing ?? false).map(taxonomy),
    taxonomy: (_, args, ctx) => taxonomy(readTaxonomy(ctx.viewer, args.name, args.editing ?? false)),
    siteSettings: (_, __, ctx) => readSiteSettings(ctx),
  },
  Mutation: {
    updateSiteSettings: (_, args, ctx) => updateSiteSettings(ctx, args.input),
  },
  // Fields that need a query of their own are read only when asked for.
  Site: {
    stickyPostIds: async (_, __, ctx) =>
      (await ctx.prisma.post.findMany({ where: { type: "post", sticky: true }, select: { id: true }, orderBy: { id: "asc" } })).map((p) => p.id),
    iconUrl: async (site: SiteSummary, _, ctx) => {
      const icon = site.iconId ? await ctx.loaders.post.load(site.iconId) : null;
      const file = (icon?.meta as Record<string, unknown> | undefined)?._wp_attached_file;
      return typeof file === "string" ? `${site.home}/wp-content/uploads/${file}` : "";
    },
  },
};
