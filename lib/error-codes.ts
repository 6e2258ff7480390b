// Every error code the subgraphs raise, with its HTTP status and default message: WordPress core's
// REST controllers, Polylang's, this site's own, and the email gateway's. Domain code raises by code
// (`fail("rest_post_invalid_id")`); a message is overridden only where WordPress words the same code
// differently by context ("Invalid post parent ID."). The REST layers read `extensions.code` and
// `extensions.status`, so a code keeps its meaning on every surface.

/** A refusal's status: 401 for an anonymous caller, 403 for a signed-in one (rest_authorization_required_code). */
export const DENIED = "denied";

export interface ErrorSpec {
  readonly status: number | typeof DENIED;
  readonly message: string;
}

const denied = (message: string): ErrorSpec => ({ status: DENIED, message });
const bad = (message: string): ErrorSpec => ({ status: 400, message });
const notFound = (message: string): ErrorSpec => ({ status: 404, message });

export const ERROR_CODES = {
  // Arguments (WordPress's rest_validate_value_from_schema and request checks)
  rest_invalid_param: bad("Invalid parameter(s)."),
  rest_missing_callback_param: bad("Missing parameter(s)."),
  rest_out_of_bounds: bad("The value is out of bounds."),
  rest_not_in_enum: bad("The value is not one of the allowed values."),
  rest_invalid_pattern: bad("The value does not match the pattern."),
  rest_additional_properties_forbidden: bad("The property is not allowed."),
  rest_no_matching_schema: bad("The value does not match the expected format."),
  rest_too_few_items: bad("The list has too few items."),
  rest_invalid_date: bad("Invalid date."),
  rest_invalid_field: bad("Invalid field."),
  rest_invalid_type: bad("The value is not of the expected type."),
  rest_invalid_url: bad("Invalid URL."),
  rest_invalid_email: bad("Invalid email address."),
  rest_setting_read_only: bad("The setting is read-only."),
  rest_no_search_term_defined: bad("You need to define a search term to order by relevance."),
  rest_orderby_include_missing_include: bad("You need to define an include parameter to order by include."),
  rest_post_invalid_page_number: bad("The page number requested is larger than the number of pages available."),
  rest_term_invalid_page_number: bad("The page number requested is larger than the number of pages available."),
  rest_revision_invalid_page_number: bad("The page number requested is larger than the number of pages available."),
  rest_revision_invalid_offset_number: bad("The offset number requested is larger than or equal to the number of available revisions."),

  // Permission refusals
  rest_forbidden: denied("Sorry, you are not allowed to do that."),
  rest_forbidden_context: denied("Sorry, you are not allowed to edit posts in this post type."),
  rest_forbidden_status: denied("Status is forbidden."),
  rest_cannot_create: denied("Sorry, you are not allowed to create posts as this user."),
  rest_cannot_edit: denied("Sorry, you are not allowed to edit this post."),
  rest_cannot_edit_others: denied("Sorry, you are not allowed to create posts as this user."),
  rest_cannot_assign_sticky: denied("Sorry, you are not allowed to make posts sticky."),
  rest_cannot_publish: denied("Sorry, you are not allowed to publish posts in this post type."),
  rest_cannot_edit_image: denied("Sorry, you are not allowed to upload media on this site."),
  rest_cannot_update: denied("Sorry, you are not allowed to edit this term."),
  rest_cannot_delete: denied("Sorry, you are not allowed to delete this post."),
  rest_cannot_read: denied("Sorry, you are not allowed to view revisions of this post."),
  rest_cannot_view: denied("Sorry, you are not allowed to view this item."),
  rest_cannot_read_status: denied("Cannot view status."),
  rest_user_cannot_view: denied("Sorry, you are not allowed to list users."),
  rest_forbidden_orderby: denied("Sorry, you are not allowed to order users by this parameter."),
  rest_forbidden_who: denied("Sorry, you are not allowed to query users by this parameter."),
  rest_cannot_create_user: denied("Sorry, you are not allowed to create new users."),
  rest_cannot_edit_roles: denied("Sorry, you are not allowed to edit roles of this user."),
  rest_user_cannot_delete: denied("Sorry, you are not allowed to delete this user."),
  forbidden: { status: 403, message: "Only the router may check credentials." },

  // Posts, pages, revisions, autosaves
  rest_post_invalid_id: notFound("Invalid post ID."),
  rest_post_invalid_parent: notFound("Invalid post parent ID."),
  rest_post_invalid_type: bad("Invalid post type."),
  rest_post_incorrect_password: { status: 403, message: "Incorrect post password." },
  rest_post_no_autosave: notFound("There is no autosave revision for this post."),
  rest_revision_parent_id_mismatch: notFound("The revision does not belong to the specified parent."),
  rest_already_trashed: { status: 410, message: "The post has already been deleted." },
  rest_trash_not_supported: { status: 501, message: "The post does not support trashing. Set 'force=true' to delete." },
  rest_invalid_author: bad("Invalid author ID."),
  rest_invalid_featured_media: bad("Invalid featured media ID."),
  rest_title_required: bad("The title is required when using a custom menu item type."),
  rest_url_required: bad("The url is required when using a custom menu item type."),

  // The site's registries
  rest_type_invalid: notFound("Invalid post type."),
  rest_status_invalid: notFound("Invalid status."),
  rest_taxonomy_invalid: notFound("Invalid taxonomy."),

  // Terms and menus
  rest_term_invalid: notFound("Term does not exist."),
  rest_term_invalid_id: bad("Invalid term ID."),
  rest_taxonomy_not_hierarchical: bad("Cannot set parent term, taxonomy is not hierarchical."),
  term_exists: bad("A term with the name provided already exists with this parent."),
  empty_term_name: bad("A name is required for this term."),
  menu_exists: bad("The menu name conflicts with another menu name. Please try another."),
  invalid_menu_id: bad("Invalid menu ID."),
  rest_invalid_menu_location: bad("Invalid menu location."),

  // Media
  rest_upload_no_data: bad("No data supplied."),
  rest_upload_no_content_type: bad("No Content-Type supplied."),
  rest_upload_no_content_disposition: bad("No Content-Disposition supplied."),
  rest_upload_invalid_disposition: bad("Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename=\"image.png\"` or similar."),
  rest_upload_hash_mismatch: { status: 412, message: "Content hash did not match expected." },
  rest_upload_sideload_error: { status: 500, message: "Sorry, you are not allowed to upload this file type." },
  rest_upload_unknown_error: { status: 500, message: "File is empty. Please upload something more substantial. This error could also be caused by uploads being disabled in your php.ini or by post_max_size being defined as smaller than upload_max_filesize in php.ini." },
  rest_unknown_attachment: notFound("Unable to get meta information for file."),
  rest_cannot_edit_file_type: bad("This type of file cannot be edited."),
  rest_image_not_edited: bad("The image was not edited. Edit the image before applying the changes."),
  rest_image_rotation_failed: { status: 500, message: "Unable to rotate this image." },
  rest_image_crop_failed: { status: 500, message: "Unable to crop this image." },
  rest_unknown_image_file_type: { status: 500, message: "Unable to edit this image." },

  // Users and application passwords
  rest_user_invalid_id: notFound("Invalid user ID."),
  rest_user_invalid_reassign: bad("Invalid user ID for reassignment."),
  rest_user_invalid_role: bad("The role does not exist."),
  rest_user_invalid_slug: bad("Invalid slug."),
  rest_user_invalid_email: bad("Invalid email address."),
  rest_user_invalid_argument: bad("Username is not editable."),
  rest_user_invalid_username: bad("Username contains invalid characters."),
  rest_user_invalid_password: bad("Passwords cannot be empty."),
  existing_user_login: { status: 500, message: "Sorry, that username already exists!" },
  existing_user_email: { status: 500, message: "Sorry, that email address is already used!" },
  user_login_too_long: { status: 500, message: "Username may not be longer than 60 characters." },
  user_nicename_too_long: { status: 500, message: "Nicename may not be longer than 50 characters." },
  invalid_username: { status: 401, message: "Unknown username. Check again or try your email address." },
  invalid_email: { status: 401, message: "Unknown email address. Check again or try your username." },
  incorrect_password: { status: 401, message: "The provided password is an invalid application password." },
  // OAuth 2.0 (RFC 6749 §5.2, RFC 6750 §3.1): the token endpoint's and bearer tokens' error codes
  invalid_request: bad("The request is missing a parameter or is malformed."),
  invalid_client: { status: 401, message: "Client authentication failed." },
  invalid_grant: bad("The authorization code or refresh token is invalid, expired, revoked or was issued to another client."),
  unsupported_grant_type: bad("The grant type is not supported."),
  invalid_scope: bad("The requested scope is invalid."),
  invalid_token: { status: 401, message: "The access token is invalid or expired." },
  // WordPress's application-passwords controller (core 5.6+; subgraphs/content/users/application-passwords.ts)
  rest_not_logged_in: { status: 401, message: "You are not currently logged in." },
  rest_cannot_list_application_passwords: denied("Sorry, you are not allowed to list application passwords for this user."),
  rest_cannot_read_application_password: denied("Sorry, you are not allowed to read this application password."),
  rest_cannot_create_application_passwords: denied("Sorry, you are not allowed to create application passwords for this user."),
  rest_cannot_edit_application_password: denied("Sorry, you are not allowed to edit this application password."),
  rest_cannot_delete_application_passwords: denied("Sorry, you are not allowed to delete application passwords for this user."),
  rest_cannot_delete_application_password: denied("Sorry, you are not allowed to delete this application password."),
  rest_cannot_introspect_app_password_for_non_authenticated_user: denied("The authenticated Application Password can only be introspected for the current user."),
  rest_no_authenticated_app_password: notFound("Cannot introspect Application Password."),
  rest_application_password_not_found: notFound("Application password not found."),
  application_password_empty_name: bad("An application name is required to create an application password."),
  application_password_duplicate_name: { status: 409, message: "Each application name should be unique." },

  // Polylang (lang/v1)
  rest_invalid_id: notFound("Invalid language ID"),
  rest_invalid_slug: notFound("Invalid language slug"),
  rest_exists: bad("Cannot create existing language."),
  pll_non_unique_slug: bad("The language code must be unique"),
  pll_invalid_locale: bad("Enter a valid WordPress locale"),
  pll_invalid_slug: bad("The language code contains invalid characters"),
  pll_invalid_name: bad("The language must have a name"),
  pll_invalid_flag: bad("The flag does not exist"),
  pll_invalid_language: bad("The language is invalid."),
  pll_translation_conflict: bad("The translation group already has an object in this language."),
  pll_empty_domains: bad("Please enter a valid URL."),
  pll_invalid_domains: bad("Polylang was unable to access the URL. Please check that the URL is valid."),
  pll_unknown_domains_languages: bad("The language is unknown and has been discarded."),
  pll_unknown_nav_menus_languages: bad("The language is unknown and has been discarded."),

  // Redirection (redirection/v1): the plugin's codes; `data.error_code` names the check (the plugin sends a source line)
  redirect: bad("Invalid redirect details"),
  redirect_create_failed: bad("Unable to create redirect"),
  redirect_update_failed: bad("Invalid redirect details"),
  redirect_bulk_failed: bad("Invalid redirect"),
  redirect_group_invalid: bad("Invalid group or parameters"),
  redirect_export_invalid_module: bad("Invalid module"),
  redirect_import_invalid_file: bad("Invalid file"),
  redirect_import_invalid_group: bad("Invalid group"),
  redirect_delete_multi: bad("Multisite installations must delete the plugin from the network admin"),
  redirect_plugin_invalid: bad("Invalid request"),

  // Embeds, site health and the block editor (oembed/1.0, site-health/v1, block-editor/v1)
  oembed_invalid_url: notFound("Not Found"),
  no_response: notFound("URL not found. Response returned a non-200 status code for this URL."),
  no_content: notFound("Unable to retrieve body from response at this URL."),
  rest_cannot_view_url_details: denied("Sorry, you are not allowed to process remote URLs."),
  rest_cannot_export_templates: denied("Sorry, you are not allowed to export templates and template parts."),
  not_available: { status: 500, message: "Directory sizes could not be returned." },

  // Credential checks refused for a while after too many failures (lib/throttle.ts); data.retryAfter in seconds
  too_many_attempts: { status: 429, message: "Too many failed sign-in attempts. Try again later." },

  // Text no database can store (router/text-input-guard.ts)
  invalid_text: bad("Text must not contain NUL characters or unpaired UTF-16 surrogates."),

  // The email gateway (/api/v2 answers them as its Hydra/RFC 7807 body by status, the message as `detail`)
  gateway_token_required: { status: 401, message: "An auth token is required (X-ESG-Auth-Token)." },
  gateway_token_invalid: { status: 401, message: "The auth token is not valid." },
  // Lowercase "token" and "expired": existing ESG clients sign in again on exactly that wording.
  gateway_token_expired: { status: 401, message: "The auth token has expired." },
  gateway_invalid_credentials: { status: 401, message: "Invalid credentials." },
  gateway_forbidden: { status: 403, message: "Access Denied." },
  gateway_router_only: { status: 403, message: "Only the router may check gateway tokens." },
  // The email gateway's appliance side: X-Switch-User, OTP, state conflicts
  gateway_switch_user_required: { status: 403, message: "API users must name the user they act as in X-Switch-User." },
  gateway_otp_required: { status: 401, message: "A one-time password is required." },
  gateway_otp_invalid: { status: 401, message: "The one-time password is not valid." },
  gateway_otp_unavailable: { status: 409, message: "One-time passwords are not available for users of an external identity provider." },
  gateway_conflict: { status: 409, message: "The request conflicts with the current state." },
  // Mail (messages, quarantine): an id outside the caller's scope is missing too (404, never 403).
  gateway_not_found: { status: 404, message: "Not Found" },
  /** Filters, values, directions or a body broke the rules; `extensions.data.violations` lists each. */
  constraint_violation: { status: 422, message: "The input violates the constraints." },
  /** Paging outside its bounds (Apollo's code for bad arguments, so GraphQL clients recognise it). */
  BAD_USER_INPUT: { status: 400, message: "Invalid input." },
  invalid_datetime: { status: 400, message: "A DateTime must be RFC 3339 with an offset, or YYYY-MM-DD." },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_CODES, code);
