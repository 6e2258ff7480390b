// Facts of the email gateway's messages that the subgraph (rules) and the /api/v2 layer
// (validation, OpenAPI) both read: the value sets of a message's enumerated properties, the role
// names that decide what a caller sees, and the ingest record's bounds.

export const MESSAGE_DIRECTIONS = ["inbound", "outbound", "internal"] as const;
/** The scan verdict. */
export const MESSAGE_RESULTS = ["clean", "spam", "virus", "phishing", "blocked"] as const;
export const DELIVERY_RESULTS = ["delivered", "deferred", "bounced", "rejected", "pending", "discarded"] as const;
/** Seed 001 §3: a message can be quarantined, released, recalled ("none": it never was). */
export const MESSAGE_STATES = ["none", "quarantined", "released", "recalled"] as const;
export const REPORT_KINDS = ["good", "bad"] as const;

export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];
export type MessageResult = (typeof MESSAGE_RESULTS)[number];
export type DeliveryResult = (typeof DELIVERY_RESULTS)[number];
export type MessageState = (typeof MESSAGE_STATES)[number];
export type ReportKind = (typeof REPORT_KINDS)[number];

/** Verdicts of outbound mail that restrict its sender (restricted senders derive from these). */
export const RESTRICTING_RESULTS: Readonly<Record<string, string>> = {
  spam: "outbound-spam", virus: "outbound-virus", phishing: "outbound-phishing",
};
export const RESTRICTION_REASONS = ["outbound-spam", "outbound-virus", "outbound-phishing"] as const;


/** A message id: the MTA's queue id, opaque (email-gateway-api.md §1.5). */
export const MESSAGE_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Bounds of one ingested message. */
export const INGEST_LIMITS = {
  /** Records in one ingest call (the admin command sends its file in batches of this size). */
  batch: 500,
  recipients: 1000,
  uris: 200,
  attachments: 50,
  /** Decoded bytes of one stored attachment. */
  attachmentBytes: 512 * 1024,
  subject: 998,
  header: 998,
  headers: 200,
  analysis: 50,
} as const;

/** Learning weights of a report (5.3.7: learning-as-good has more effect on reputation). */
export const LEARNING_WEIGHTS: Readonly<Record<ReportKind, number>> = { good: 2, bad: 1 };

/** When report-as-good / report-as-bad replaced the submit-as-* routes: release 5.3.0, 2024-05-22. */
export const SUBMIT_DEPRECATED_SINCE = new Date("2024-05-22T00:00:00Z");
