// Licensing facts of the email gateway that both the subgraph (rules) and the /api/v2 layer
// (validation, OpenAPI) read.

export const ACCOUNTED_EMAIL_TYPES = ["address", "mailbox", "functional"] as const;
export type AccountedEmailType = (typeof ACCOUNTED_EMAIL_TYPES)[number];

/** An accounted address expires this many days after it was last seen. */
export const EXPIRY_DAYS = 30;
/** RFC 5321's path limit; the gateway rejects longer addresses (seed §8). */
export const MAX_ADDRESS_LENGTH = 254;
