// `npm run admin -- <command>`: what an operator needs without the API: create site users and
// application passwords, revoke them, reset the email gateway administrator's password, and run
// long jobs with a progress bar. Each command opens the database the server uses (admin/operator.ts)
// and calls the subgraphs' domain functions. A PGlite directory belongs to one process: stop
// `npm start` first when the database is the embedded one (PostgreSQL needs no stop).
import crypto from "node:crypto";
import { Command, InvalidArgumentError } from "commander";
import {
  createApplicationPassword, deleteApplicationPassword, deleteApplicationPasswords, listApplicationPasswords,
  staleApplicationPasswords, userIdByLogin, wordpressGmt,
} from "../subgraphs/content/users/application-passwords.ts";
import { createOAuthClient } from "../subgraphs/content/users/oauth.ts";
import { createUser } from "../subgraphs/content/users/user-accounts.ts";
import { generatePassword } from "../subgraphs/gateway/auth/passwords.ts";
import { ADMIN_USERNAME, setGatewayPassword } from "../subgraphs/gateway/auth/users.ts";
import { registerGatewayMailCommands } from "./gateway-mail.ts";
import { registerGatewayApplianceCommands } from "./gateway-appliance.ts";
import { runJob } from "./job-runner.ts";
import { withOperator } from "./operator.ts";

const print = (line: string) => process.stdout.write(`${line}\n`);

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("Not a whole number of days.");
  return n;
};

const program = new Command("admin")
  .description("Operate the site and the email gateway on the database `npm start` uses (DATABASE_URL, DATA_DIR).")
  .addHelpText("after", `
The embedded database (PGlite, the default) belongs to one process: stop \`npm start\` before
running a command. With DATABASE_URL=postgres://… the server may keep running.

Examples:
  npm run admin -- user create --username ada --email ada@example.com --role editor
  npm run admin -- app-password create --user admin --name "CLI recovery"
  npm run admin -- oauth-client create --name "Mobile app" --redirect-uri https://app.example/callback
  npm run admin -- gateway reset-admin-password`)
  .showHelpAfterError();

const user = program.command("user").description("Site users.");
user.command("create")
  .description("Create a site user (they sign in to the API with application passwords).")
  .requiredOption("--username <login>", "login name")
  .requiredOption("--email <email>", "email address")
  .option("--role <role>", "role: administrator, editor, author, contributor or subscriber", "subscriber")
  .option("--name <name>", "display name")
  .action((o: { username: string; email: string; role: string; name?: string }) => withOperator(async (op) => {
    // Site passwords never sign in here (the API takes application passwords): a random one is stored.
    const created = await createUser(op.content(), { username: o.username, email: o.email, roles: [o.role], name: o.name, password: crypto.randomBytes(24).toString("base64url") });
    print(`User ${created.login} created (id ${created.id}, role ${o.role}).`);
  }));

const appPassword = program.command("app-password").description("Site application passwords (HTTP Basic for the API).");
appPassword.command("create")
  .description("Create an application password; it is printed once and cannot be shown again.")
  .requiredOption("--user <login>", "the user's login or email")
  .requiredOption("--name <name>", "the application's name (unique per user)")
  .action((o: { user: string; name: string }) => withOperator(async (op) => {
    const ctx = op.content();
    const { password, applicationPassword } = await createApplicationPassword(ctx, await userIdByLogin(ctx, o.user), { name: o.name });
    print(`Application password "${applicationPassword.name}" (${applicationPassword.uuid}) for ${o.user}:`);
    print(password);
  }));
appPassword.command("list")
  .description("List a user's application passwords (never their secrets).")
  .requiredOption("--user <login>", "the user's login or email")
  .action((o: { user: string }) => withOperator(async (op) => {
    const ctx = op.content();
    const rows = await listApplicationPasswords(ctx, await userIdByLogin(ctx, o.user));
    if (!rows.length) print(`${o.user} has no application passwords.`);
    for (const p of rows) {
      print([p.uuid, p.name, `created ${wordpressGmt(p.createdAt)}`, p.lastUsedAt ? `last used ${wordpressGmt(p.lastUsedAt)}${p.lastIp ? ` from ${p.lastIp}` : ""}` : "never used"].join("  "));
    }
  }));
appPassword.command("revoke")
  .description("Revoke one application password (--uuid) or all of a user's (--all).")
  .requiredOption("--user <login>", "the user's login or email")
  .option("--uuid <uuid>", "the password to revoke")
  .option("--all", "revoke every password of the user")
  .action((o: { user: string; uuid?: string; all?: boolean }) => withOperator(async (op) => {
    if (!o.uuid === !o.all) program.error("Give either --uuid <uuid> or --all.");
    const ctx = op.content();
    const id = await userIdByLogin(ctx, o.user);
    if (o.uuid) print(`Revoked "${(await deleteApplicationPassword(ctx, id, o.uuid)).name}".`);
    else print(`Revoked ${await deleteApplicationPasswords(ctx, id)} application password(s) of ${o.user}.`);
  }));
appPassword.command("prune-unused")
  .description("Revoke, with a progress bar, every password created and not used for N days.")
  .requiredOption("--older-than-days <n>", "days without use", positiveInt)
  .option("--dry-run", "only count them")
  .action((o: { olderThanDays: number; dryRun?: boolean }) => withOperator(async (op) => {
    const ctx = op.content();
    const stale = await staleApplicationPasswords(ctx, new Date(Date.now() - o.olderThanDays * 86_400_000));
    if (o.dryRun) {
      print(`${stale.length} application password(s) unused for ${o.olderThanDays} days.`);
      return;
    }
    const report = await runJob("Revoking", stale, async (p) => { await deleteApplicationPassword(ctx, p.userId, p.uuid); });
    print(`Revoked ${report.done} application password(s) unused for ${o.olderThanDays} days.`);
    for (const { item, error } of report.failed) print(`Failed: ${item.uuid} (${item.name}): ${error.message}`);
    if (report.failed.length) process.exitCode = 1;
  }));

const oauthClient = program.command("oauth-client").description("OAuth 2.0 clients (router/oauth.ts).");
oauthClient.command("create")
  .description("Register an OAuth client; its secret is printed once and cannot be shown again.")
  .requiredOption("--name <name>", "the application's name, shown on the consent page")
  .requiredOption("--redirect-uri <uri>", "an allowed redirect URI (repeat for several)", (value: string, previous: string[] = []) => [...previous, value])
  .action((o: { name: string; redirectUri: string[] }) => withOperator(async (op) => {
    const { clientId, clientSecret } = await createOAuthClient(op.content(), { name: o.name, redirectUris: o.redirectUri });
    print(`OAuth client "${o.name}" registered.`);
    print(`client_id:     ${clientId}`);
    print(`client_secret: ${clientSecret}`);
  }));

const gatewayCommand = program.command("gateway").description("The email gateway.");
registerGatewayMailCommands(gatewayCommand);
registerGatewayApplianceCommands(gatewayCommand);
gatewayCommand.command("reset-admin-password")
  .description(`Set the password of the gateway administrator "${ADMIN_USERNAME}" (printed when generated) and end their sessions.`)
  .option("--password <password>", "the new password (default: a generated one, printed once)")
  .action((o: { password?: string }) => withOperator(async (op) => {
    const password = o.password ?? generatePassword();
    await setGatewayPassword(op.gateway(), ADMIN_USERNAME, password);
    print(o.password ? `Password of "${ADMIN_USERNAME}" changed.` : `New password of "${ADMIN_USERNAME}": ${password}`);
  }));

try {
  await program.parseAsync();
} catch (error) {
  // Domain refusals carry a code and a message meant for people; anything else is a bug to show whole.
  const code = (error as { extensions?: { code?: unknown } }).extensions?.code;
  process.stderr.write(code ? `error: ${(error as Error).message} (${String(code)})\n` : `${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
