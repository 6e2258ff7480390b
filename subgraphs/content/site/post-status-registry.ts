// The post statuses WordPress registers (create_initial_post_types) that core/v2/statuses can
// show: every status that is not internal, plus trash. Who may see which follows
// WP_REST_Post_Statuses_Controller::check_read_permission.
import { fail } from "../../../lib/errors.ts";
import { refuse, type Viewer } from "../permissions.ts";
import { canEditAnyPostType } from "./post-type-registry.ts";

export interface PostStatusRegistration {
  slug: string;
  label: string;
  public: boolean;
  private: boolean;
  protected: boolean;
  internal: boolean;
  /** publicly_queryable (defaults to public). */
  queryable: boolean;
  /** show_in_admin_all_list (defaults to not internal). */
  showInList: boolean;
  dateFloating: boolean;
}

const status = (slug: string, label: string, flags: Partial<Omit<PostStatusRegistration, "slug" | "label">> = {}): PostStatusRegistration => {
  const isPublic = flags.public ?? false;
  const internal = flags.internal ?? false;
  return {
    slug, label, public: isPublic, private: flags.private ?? false, protected: flags.protected ?? false, internal,
    queryable: flags.queryable ?? isPublic, showInList: flags.showInList ?? !internal, dateFloating: flags.dateFloating ?? false,
  };
};

/** In registration order: get_post_stati(['internal' => false]) and then trash, as the controller lists them. */
export const POST_STATUS_REGISTRY: readonly PostStatusRegistration[] = [
  status("publish", "Published", { public: true }),
  status("future", "Scheduled", { protected: true }),
  status("draft", "Draft", { protected: true, dateFloating: true }),
  status("pending", "Pending", { protected: true, dateFloating: true }),
  status("private", "Private", { private: true }),
  status("trash", "Trash", { internal: true }),
];

/** Public statuses are for everyone; the others (non-internal, and trash) for those who may edit posts of some type. */
export const canReadStatus = (viewer: Viewer | null, s: PostStatusRegistration): boolean =>
  s.public || ((!s.internal || s.slug === "trash") && canEditAnyPostType(viewer));

export function listPostStatuses(viewer: Viewer | null, editing: boolean): PostStatusRegistration[] {
  if (editing && !canEditAnyPostType(viewer)) {
    refuse({ viewer }, "rest_cannot_view", "Sorry, you are not allowed to manage post statuses.");
  }
  return POST_STATUS_REGISTRY.filter((s) => canReadStatus(viewer, s));
}

export function readPostStatus(viewer: Viewer | null, slug: string): PostStatusRegistration {
  const found = POST_STATUS_REGISTRY.find((s) => s.slug === slug);
  if (!found) return fail("rest_status_invalid");
  if (!canReadStatus(viewer, found)) refuse({ viewer }, "rest_cannot_read_status");
  return found;
}
