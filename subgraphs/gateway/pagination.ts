// Page windows for gateway collections: `page` is 1-based, `itemsPerPage` defaults to 30 and is
// clamped to 100 (API Platform's maximum_items_per_page clamps silently rather than failing).
import { fail } from "../../lib/errors.ts";

export const DEFAULT_ITEMS_PER_PAGE = 30;
export const MAX_ITEMS_PER_PAGE = 100;
const MAX_OFFSET = 2 ** 31 - 1;

export interface PageWindow { page: number; itemsPerPage: number; skip: number; take: number }

export function pageWindow(page: number, itemsPerPage: number): PageWindow {
  if (!Number.isInteger(page) || page < 1) fail("invalid_pagination", "Page should not be less than 1.", 400);
  if (!Number.isInteger(itemsPerPage) || itemsPerPage < 1) fail("invalid_pagination", "Items per page should not be less than 1.", 400);
  const size = Math.min(itemsPerPage, MAX_ITEMS_PER_PAGE);
  const skip = (page - 1) * size;
  if (skip > MAX_OFFSET) fail("invalid_pagination", "Page is out of range.", 400);
  return { page, itemsPerPage: size, skip, take: size };
}
