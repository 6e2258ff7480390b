// Integration connectors (release 5.3.7/5.3.8): the cloud-suite-B (Microsoft 365), cloud-suite-A
// (Google) and directory (LDAP) connector configurations. Each is a configuration section: a
// write is saved as pending and takes effect on apply-settings, audited with its changeset
// (secrets shown as "******", never their values). Secrets are write-only: the API says only
// whether one is set. The cloud-suite-A connector still accepts the deprecated customer-id
// property (`googleCustomerId`) and maps it onto `organizationId`.
import { MAX_LDAP_TEXT, type Connector } from "../../../lib/gateway/appliance.ts";
import { violationError, type Violation } from "../../../lib/gateway/collection-rules.ts";
import type { GatewayContext } from "../context.ts";
import { readSection, stageChange, type ConfigSection, type SectionValue, type SettingsContext } from "../appliance/settings.ts";

type FieldSpec =
  | { type: "string"; default: string; maxLength: number; secret?: boolean; pattern?: RegExp; patternMessage?: string }
  | { type: "boolean"; default: boolean }
  | { type: "integer"; default: number; min: number; max: number }
  | { type: "enum"; default: string; values: readonly string[] };

export const LDAP_ENCRYPTIONS = ["none", "starttls", "ldaps"] as const;

const text = (maxLength: number, extra: Partial<Extract<FieldSpec, { type: "string" }>> = {}): FieldSpec => ({ type: "string", default: "", maxLength, ...extra });
const flag = (value = false): FieldSpec => ({ type: "boolean", default: value });

/** The fields of each connector, their types, defaults and bounds. */
export const CONNECTOR_FIELDS = {
  "microsoft-365": {
    enabled: flag(),
    tenant: text(255, { pattern: /^$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[a-z0-9-]+(\.[a-z0-9-]+)+$/i, patternMessage: "The tenant must be a tenant id (GUID) or a domain name." }),
    clientId: text(255),
    clientSecret: text(1024, { secret: true }),
    userEmailFromGroups: flag(),
  },
  google: {
    enabled: flag(),
    organizationId: text(255),
    adminEmail: text(254),
    serviceAccountKey: text(16384, { secret: true }),
    userEmailFromGroups: flag(),
  },
  ldap: {
    enabled: flag(),
    host: text(253),
    port: { type: "integer", default: 389, min: 1, max: 65535 },
    encryption: { type: "enum", default: "none", values: LDAP_ENCRYPTIONS },
    bindDn: text(MAX_LDAP_TEXT),
    bindPassword: text(1024, { secret: true }),
    baseDn: text(MAX_LDAP_TEXT),
    userFilter: text(MAX_LDAP_TEXT),
    groupFilter: text(MAX_LDAP_TEXT),
    emailAttribute: { type: "string", default: "mail", maxLength: 255 },
    userEmailFromGroups: flag(),
  },
} as const satisfies Record<Connector, Record<string, FieldSpec>>;

/** Deprecated property names still accepted on write, and the property each maps onto. */
export const DEPRECATED_ALIASES: Record<Connector, Record<string, string>> = {
  "microsoft-365": {},
  google: { googleCustomerId: "organizationId" },
  ldap: {},
};

const sections = new Map<Connector, ConfigSection<SectionValue>>();
export function connectorSection(connector: Connector): ConfigSection<SectionValue> {
  let section = sections.get(connector);
  if (!section) {
    const fields: Record<string, FieldSpec> = CONNECTOR_FIELDS[connector];
    section = {
      name: `integration/${connector}`,
      defaults: Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.default])),
      secrets: Object.entries(fields).filter(([, f]) => f.type === "string" && f.secret).map(([k]) => k),
    };
    sections.set(connector, section);
  }
  return section;
}

/** What the API shows: saved values without secrets, whether each secret is set, and the apply state. */
export interface ConnectorView {
  values: SectionValue;
  applied: SectionValue;
  secretsSet: Record<string, boolean>;
  pendingChanges: boolean;
  lastAppliedAt: Date | null;
}

function withoutSecrets(connector: Connector, value: SectionValue): SectionValue {
  const secrets = connectorSection(connector).secrets ?? [];
  return Object.fromEntries(Object.entries(value).filter(([k]) => !secrets.includes(k)));
}

export async function connectorConfig(ctx: Pick<GatewayContext, "db">, connector: Connector): Promise<ConnectorView> {
  const section = connectorSection(connector);
  const state = await readSection(ctx, section);
  return {
    values: withoutSecrets(connector, state.saved),
    applied: withoutSecrets(connector, state.applied),
    secretsSet: Object.fromEntries((section.secrets ?? []).map((k) => [k, Boolean(state.saved[k])])),
    pendingChanges: state.pending,
    lastAppliedAt: state.appliedAt,
  };
}

/** The configuration in force (applied) with its secrets, for the code that connects. */
export async function appliedConnectorConfig(ctx: Pick<GatewayContext, "db">, connector: Connector): Promise<SectionValue> {
  return (await readSection(ctx, connectorSection(connector))).applied;
}

/**
 * Saves a connector's configuration as pending. `replace`: properties not given go back to their
 * defaults (PUT); otherwise only the given ones change (POST, PATCH, GraphQL). Null clears a
 * property to its default. Every bad value is reported at once (422).
 */
export async function updateConnectorConfig(
  ctx: SettingsContext, connector: Connector, input: Record<string, unknown>, replace = false,
): Promise<ConnectorView> {
  const fields: Record<string, FieldSpec> = CONNECTOR_FIELDS[connector];
  const aliases = DEPRECATED_ALIASES[connector];
  const section = connectorSection(connector);
  const { saved } = await readSection(ctx, section);
  const next: SectionValue = replace
    // Secrets are write-only: a replace that does not send one keeps it (clients cannot read it back to resend).
    ? { ...section.defaults, ...Object.fromEntries((section.secrets ?? []).map((k) => [k, saved[k]])) }
    : { ...saved };
  const violations: Violation[] = [];
  const given = Object.entries(input).filter(([, v]) => v !== undefined);
  // The current name wins over its deprecated alias when a client sends both.
  const ordered = [...given.filter(([k]) => k in aliases), ...given.filter(([k]) => !(k in aliases))];
  for (const [key, value] of ordered) {
    const name = aliases[key] ?? key;
    const field = fields[name];
    const violation = (message: string) => violations.push({ propertyPath: key, message });
    if (!field) { violation(`Unknown property "${key}".`); continue; }
    if (value === null) { next[name] = field.default; continue; }
    switch (field.type) {
      case "boolean":
        if (typeof value !== "boolean") violation("This value should be of type bool.");
        else next[name] = value;
        break;
      case "integer":
        if (!Number.isInteger(value)) violation("This value should be of type int.");
        else if ((value as number) < field.min || (value as number) > field.max) violation(`This value should be between ${field.min} and ${field.max}.`);
        else next[name] = value as number;
        break;
      case "enum":
        if (typeof value !== "string" || !field.values.includes(value)) violation(`The value you selected is not a valid choice; allowed: ${field.values.join(", ")}.`);
        else next[name] = value;
        break;
      case "string": {
        if (typeof value !== "string") { violation("This value should be of type string."); break; }
        const trimmed = field.secret ? value : value.trim();
        if (trimmed.length > field.maxLength) violation(`This value is too long. It should have ${field.maxLength} characters or less.`);
        else if (field.pattern && !field.pattern.test(trimmed)) violation(field.patternMessage ?? "This value is not valid.");
        else next[name] = trimmed;
      }
    }
  }
  if (connector === "ldap" && next.enabled === true && !next.host) violations.push({ propertyPath: "host", message: "An enabled directory connector needs a host." });
  if (violations.length) throw violationError(violations);
  await stageChange(ctx, section, next);
  return connectorConfig(ctx, connector);
}
