// `npm run admin -- gateway …` for the appliance side: what an operator needs when the API cannot
// help (an administrator locked out by a mandatory OTP policy, a lost authenticator), and the
// periodic notification checks for cron. Each calls the gateway subgraph's domain functions.
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { applySettings } from "../subgraphs/gateway/appliance/settings.ts";
import { runEventChecks } from "../subgraphs/gateway/events/events.ts";
import { removeOtp, updateOtpPolicy } from "../subgraphs/gateway/users/otp.ts";
import { withOperator } from "./operator.ts";

const print = (line: string) => process.stdout.write(`${line}\n`);

const mandatoryValue = (value: string): string => {
  if (!["none", "all", "selected"].includes(value)) throw new InvalidArgumentError("Use none, all or selected.");
  return value;
};

export function registerGatewayApplianceCommands(gateway: Command): void {
  gateway.command("otp-reset")
    .description("Turn a gateway user's one-time password off (they set it up again), e.g. after a lost authenticator.")
    .requiredOption("--user <username>", "the gateway user")
    .action((o: { user: string }) => withOperator(async (op) => {
      const ctx = op.gateway();
      const user = await ctx.db.prisma.gatewayUser.findUnique({ where: { username: o.user } });
      if (!user) throw new InvalidArgumentError(`No gateway user "${o.user}".`);
      await removeOtp(ctx, { id: user.id, username: user.username }, { reset: true });
      print(`One-time password of "${user.username}" reset.`);
    }));

  gateway.command("otp-policy")
    .description("Set who must use one-time passwords (audited like an API change); --apply makes it take effect at once.")
    .requiredOption("--mandatory <who>", "none, all or selected", mandatoryValue)
    .option("--users <usernames>", "comma-separated, for --mandatory selected")
    .option("--apply", "apply pending settings now")
    .action((o: { mandatory: string; users?: string; apply?: boolean }) => withOperator(async (op) => {
      const ctx = op.gateway();
      const policy = await updateOtpPolicy(ctx, { mandatory: o.mandatory, users: o.users?.split(",").map((u) => u.trim()).filter(Boolean) ?? null });
      print(`OTP policy saved: mandatory ${policy.mandatory}${policy.users.length ? ` (${policy.users.join(", ")})` : ""}.`);
      if (o.apply) print(`Apply settings: ${(await applySettings(ctx)).status}.`);
    }));

  gateway.command("apply-settings")
    .description("Apply pending configuration changes (as POST /api/v2/appliance/apply-settings).")
    .action(() => withOperator(async (op) => {
      const result = await applySettings(op.gateway());
      print(result.status === "applied" ? `Applied: ${result.sections.join(", ")}.` : "Nothing was pending.");
    }));

  gateway.command("check-events")
    .description("Record due notifications (certificates expiring in 7 days, domain trials ending, silent cluster nodes); for cron.")
    .action(() => withOperator(async (op) => {
      print(`${await runEventChecks(op.gateway())} new event(s) recorded.`);
    }));
}
