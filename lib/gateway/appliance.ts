// Appliance facts of the email gateway (seed 001 §3, §6, §8) that both the subgraph (rules) and
// the /api/v2 layer (validation, OpenAPI) read.

/** Event kinds a client can list (§6). */
export const EVENT_KINDS = ["certificate-expiry", "cluster-incident", "trial-expiring", "release-request", "dmarc-report", "quarantine-digest"] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** A TLS certificate is announced this many days before it expires (§8). */
export const CERTIFICATE_NOTICE_DAYS = 7;
/** A domain trial's end is announced this many days ahead (not shown in the seed: the certificate's lead time). */
export const TRIAL_NOTICE_DAYS = 7;
/** A one-time domain trial lasts this long (not shown: 30 days, the licensing expiry period). */
export const TRIAL_DAYS = 30;
/** The cluster monitor raises an incident for a running node silent this long (not shown). */
export const NODE_SILENCE_MINUTES = 5;

/** A cluster has one primary and up to 64 workers (§8). */
export const MAX_WORKERS = 64;
/** Workers keep stored mail this many days (§8). */
export const WORKER_RETENTION_DAYS = 3;
export const NODE_ROLES = ["primary", "worker"] as const;
/** §3: a cluster can be set up, running, suspended or destroyed; a lone appliance is standalone. */
export const NODE_STATES = ["standalone", "set-up", "running", "suspended", "destroyed"] as const;
export type NodeState = (typeof NODE_STATES)[number];

export const IDENTITY_PROVIDERS = ["local", "external"] as const;
/** How OTP stands for a user: unavailable (external identity provider), disabled, required (mandatory, not set up), enabled. */
export const OTP_STATES = ["unavailable", "disabled", "required", "enabled"] as const;
export const OTP_MANDATORY = ["none", "all", "selected"] as const;

/** LDAP DN and filter lengths (SASL configuration, §8). */
export const MAX_LDAP_TEXT = 2048;
export const CONNECTORS = ["microsoft-365", "google", "ldap"] as const;
export type Connector = (typeof CONNECTORS)[number];
