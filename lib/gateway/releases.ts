// The release line 5.3 as data (seed 001 §9): each release's date and the API changes it made,
// so the API can say what changed when, and which routes and properties are deprecated.
// Behaviour changes of the release notes without an API change are not listed here.

export const API_CHANGE_KINDS = ["added", "deprecated", "fixed", "removed", "changed"] as const;
export type ApiChangeKind = (typeof API_CHANGE_KINDS)[number];
/** What a change is about: a route, a property of a resource, or authentication. */
export const API_CHANGE_SUBJECTS = ["route", "property", "authentication"] as const;

export interface ApiChange {
  kind: ApiChangeKind;
  subject: (typeof API_CHANGE_SUBJECTS)[number];
  /** Method and path for routes, `Resource.property` for properties. */
  target: string;
  description: string;
  /** For deprecations: what to use instead. */
  replacement?: string;
}

export interface Release { version: string; releasedOn: string; apiChanges: ApiChange[]; breaking?: string[] }

const CONNECTOR_B = "/integration/microsoft-365-config";
const CONNECTOR_A = "/integration/google-connector-config";
const LDAP = "/integration/ldap";

export const RELEASES: readonly Release[] = [
  {
    version: "5.3.0", releasedOn: "2024-05-22",
    apiChanges: [
      { kind: "added", subject: "route", target: "POST /appliance/apply-settings", description: "Applies pending configuration changes; required after any configuration change for it to take effect." },
      { kind: "added", subject: "route", target: "POST /message/{id}/report-as-good", description: "Reports a message as good." },
      { kind: "added", subject: "route", target: "POST /message/{id}/report-as-bad", description: "Reports a message as bad." },
      { kind: "deprecated", subject: "route", target: "POST /message/{id}/submit-as-good", description: "Deprecated alias of report-as-good.", replacement: "POST /message/{id}/report-as-good" },
      { kind: "deprecated", subject: "route", target: "POST /message/{id}/submit-as-bad", description: "Deprecated alias of report-as-bad.", replacement: "POST /message/{id}/report-as-bad" },
    ],
    breaking: [
      "API clients must call POST /api/v2/appliance/apply-settings after one or more configuration changes; before 5.3.0 each change forced a reload.",
      "The DMARC report sender address is always no-reply at the MTA hostname; SPF for that hostname must be correct.",
      "Subjects of user messages no longer substitute variables; the spam notification header setting became a fixed Spam notification subject.",
    ],
  },
  { version: "5.3.1", releasedOn: "2024-06-12", apiChanges: [] },
  {
    version: "5.3.2", releasedOn: "2024-06-26",
    apiChanges: [{ kind: "fixed", subject: "route", target: "GET /message/{id}/fetch/{attachment}", description: "Checks that the message is stored in quarantine before fetching the attachment." }],
  },
  { version: "5.3.3", releasedOn: "2024-07-01", apiChanges: [] },
  { version: "5.3.4", releasedOn: "2024-07-16", apiChanges: [] },
  {
    version: "5.3.5", releasedOn: "2024-07-30",
    apiChanges: [
      { kind: "fixed", subject: "route", target: "GET /messages", description: "An invalid filter operator name is reported as a violation." },
      { kind: "fixed", subject: "route", target: "GET /licensing/accounted-email", description: "Filterable by email." },
      { kind: "fixed", subject: "route", target: "GET /restricted-sender", description: "Filterable by sender." },
    ],
  },
  { version: "5.3.6", releasedOn: "2024-08-19", apiChanges: [] },
  {
    version: "5.3.7", releasedOn: "2024-09-16",
    apiChanges: [{ kind: "added", subject: "property", target: `${CONNECTOR_B} tenant`, description: "The cloud-suite-B connector's tenant, readable and writable." }],
  },
  {
    version: "5.3.8", releasedOn: "2024-09-30",
    apiChanges: [
      { kind: "added", subject: "property", target: `${CONNECTOR_A} enabled`, description: "Whether the cloud-suite-A connector is enabled." },
      { kind: "added", subject: "property", target: `${LDAP} enabled`, description: "Whether the directory (LDAP) connector is enabled." },
      { kind: "added", subject: "property", target: `${CONNECTOR_A} organizationId`, description: "The cloud-suite-A organization id." },
      { kind: "added", subject: "property", target: `${CONNECTOR_B} userEmailFromGroups`, description: "Takes user email addresses from imported groups." },
      { kind: "added", subject: "property", target: `${CONNECTOR_A} userEmailFromGroups`, description: "Takes user email addresses from imported groups." },
      { kind: "added", subject: "property", target: `${LDAP} userEmailFromGroups`, description: "Takes user email addresses from imported groups." },
      { kind: "deprecated", subject: "property", target: `${CONNECTOR_A} googleCustomerId`, description: "The customer-id property; still accepted and mapped to organizationId.", replacement: `${CONNECTOR_A} organizationId` },
    ],
  },
  { version: "5.3.9", releasedOn: "2024-10-15", apiChanges: [] },
  { version: "5.3.10", releasedOn: "2024-11-05", apiChanges: [] },
  { version: "5.3.11", releasedOn: "2024-11-12", apiChanges: [] },
  { version: "5.3.12", releasedOn: "2024-11-18", apiChanges: [] },
  { version: "5.3.13", releasedOn: "2024-12-02", apiChanges: [] },
  { version: "5.3.14", releasedOn: "2024-12-18", apiChanges: [] },
  { version: "5.3.15", releasedOn: "2025-02-19", apiChanges: [] },
  { version: "5.3.16", releasedOn: "2025-03-26", apiChanges: [] },
  {
    version: "5.3.17", releasedOn: "2025-09-16",
    apiChanges: [{ kind: "removed", subject: "authentication", target: "old API and passwordless authentication", description: "The old API authentication and old passwordless authentication systems were removed; clients may have to sign in again." }],
  },
  { version: "5.3.18", releasedOn: "2025-10-22", apiChanges: [] },
  { version: "5.3.19", releasedOn: "2025-12-09", apiChanges: [] },
];

/** The release this appliance runs: the newest of the line. */
export const CURRENT_VERSION = RELEASES[RELEASES.length - 1].version;

/** Numeric order of versions ("5.3.10" after "5.3.9"). */
export const versionKey = (version: string): number => version.split(".").reduce((n, part) => n * 1000 + Number(part), 0);
