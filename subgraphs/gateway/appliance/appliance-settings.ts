// The appliance's own settings section: the MTA hostname (DMARC reports are sent from
// no-reply@<MTA hostname>, 5.3.0 breaking change 2), where administrator notifications go, and the
// quarantine sender used by other notifications. Changed through the pending/apply mechanism.
import os from "node:os";
import type { GatewayContext } from "../context.ts";
import { appliedSection, type ConfigSection } from "./settings.ts";

export interface ApplianceSettings extends Record<string, string> {
  mtaHostname: string;
  adminEmail: string;
  quarantineSender: string;
}

const host = () => (os.hostname().includes(".") ? os.hostname() : `${os.hostname()}.localdomain`).toLowerCase();

export const APPLIANCE_SECTION: ConfigSection<ApplianceSettings> = {
  name: "appliance",
  get defaults() {
    return { mtaHostname: host(), adminEmail: `postmaster@${host()}`, quarantineSender: `quarantine@${host()}` };
  },
};

export const HOSTNAME_PATTERN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export const applianceSettings = (ctx: Pick<GatewayContext, "db">) => appliedSection(ctx, APPLIANCE_SECTION);
