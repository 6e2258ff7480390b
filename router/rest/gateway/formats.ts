// Resources and collections in the three formats, following API Platform's normalizers:
// Hydra (`hydra:member`, `hydra:totalItems`, `hydra:view`), HAL (`_links`, `totalItems`,
// `itemsPerPage`, `_embedded.item`) and plain JSON (a bare array, no paging metadata).
// Items show the declaration's readable properties, in its order, read from their GraphQL fields.
import type { Format, GatewayRequest, GatewayResult } from "./route.ts";
import { MEDIA_TYPES } from "./negotiation.ts";
import { collectionIri, itemIri, type AnyResource } from "./resource.ts";

/** An item as the graph answered it: GraphItem<P> of the resource, read here by field name. */
export type GraphRecord = { readonly [field: string]: unknown };

export interface PageData { items: readonly GraphRecord[]; totalItems: number; page: number; itemsPerPage: number }

const contextIri = (resource: AnyResource) => `/api/v2/contexts/${resource.name}`;

/** The properties a client sees, by their REST names, in declaration order; write-only ones never. */
export function shownProperties(resource: AnyResource, item: GraphRecord): Record<string, unknown> {
  return Object.fromEntries(resource.shown.map(({ name, field }) => [name, item[field]]));
}

function idOf(resource: AnyResource, item: GraphRecord): unknown {
  return item[resource.properties.id?.field ?? "id"];
}

function shapeItem(resource: AnyResource, item: GraphRecord, format: Format): Record<string, unknown> {
  const properties = shownProperties(resource, item);
  switch (format) {
    case "jsonld": return { "@id": itemIri(resource, idOf(resource, item)), "@type": resource.name, ...properties };
    case "hal": return { _links: { self: { href: itemIri(resource, idOf(resource, item)) } }, ...properties };
    case "json": return properties;
  }
}

export function itemResult(resource: AnyResource, item: GraphRecord, format: Format): GatewayResult {
  const body = shapeItem(resource, item, format);
  return { body: format === "jsonld" ? { "@context": contextIri(resource), ...body } : body };
}

/** The request's own URL with `page` set (or removed when null), other parameters kept in order. */
function pageUrl(request: GatewayRequest, page: number | null): string {
  const params = new URLSearchParams(request.query);
  if (page === null) params.delete("page");
  else params.set("page", String(page));
  const query = params.toString();
  return query ? `${request.path}?${query}` : request.path;
}

/**
 * A page of a collection. `filtered` says whether filter or order parameters were applied
 * (Hydra then shows a view even on a single page, as API Platform does).
 */
export function collectionResult(resource: AnyResource, data: PageData, request: GatewayRequest, filtered: boolean): GatewayResult {
  const { format } = request;
  const headers = { "content-type": MEDIA_TYPES[format] };
  const items = data.items.map((item) => shapeItem(resource, item, format));
  const lastPage = Math.max(1, Math.ceil(data.totalItems / data.itemsPerPage));
  const { page } = data;
  const hasPrevious = page > 1;
  const hasNext = page < lastPage;
  if (format === "json") return { body: items, headers };

  if (format === "jsonld") {
    // Hydra counts a collection as paginated only when it spans more than one page.
    const paginated = lastPage > 1;
    const view = paginated || filtered
      ? {
        "hydra:view": {
          "@id": pageUrl(request, paginated ? page : null),
          "@type": "hydra:PartialCollectionView",
          ...(paginated ? {
            "hydra:first": pageUrl(request, 1),
            "hydra:last": pageUrl(request, lastPage),
            ...(hasPrevious ? { "hydra:previous": pageUrl(request, page - 1) } : {}),
            ...(hasNext ? { "hydra:next": pageUrl(request, page + 1) } : {}),
          } : {}),
        },
      }
      : {};
    return {
      headers,
      body: {
        "@context": contextIri(resource), "@id": collectionIri(resource), "@type": "hydra:Collection",
        "hydra:member": items, "hydra:totalItems": data.totalItems, ...view,
      },
    };
  }

  // HAL: first and last always (pagination is on); an empty page has no `_embedded` and no `item` links.
  const links: Record<string, unknown> = {
    self: { href: pageUrl(request, page) },
    first: { href: pageUrl(request, 1) },
    last: { href: pageUrl(request, lastPage) },
    ...(hasPrevious ? { prev: { href: pageUrl(request, page - 1) } } : {}),
    ...(hasNext ? { next: { href: pageUrl(request, page + 1) } } : {}),
  };
  if (items.length) links.item = data.items.map((item) => ({ href: itemIri(resource, idOf(resource, item)) }));
  return {
    headers,
    body: {
      _links: links, totalItems: data.totalItems, itemsPerPage: data.itemsPerPage,
      ...(items.length ? { _embedded: { item: items } } : {}),
    },
  };
}
