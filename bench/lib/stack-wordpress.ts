// The real WordPress beside ours, as the issue measured it: Debian bookworm's `wordpress` package
// (6.1.x) behind nginx and php-fpm (6 workers, opcache) on the local MariaDB, seeded with the same
// site (siteData() through bench/lib/wordpress-seed.php). Setup (once, as root): see bench/README.md.
// nginx and php-fpm are the bench's own instances (configs in a temp dir, loopback ports), not the
// system services. The seeded database is dumped into node_modules/.cache and restored on each run,
// so one run's writes never reach the next.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { imageBytes, siteData, SITE_VERSION } from "./site-500.ts";
import { freePort, root, spawnGroup, stopGroup, waitFor200 } from "./stack-process.ts";

const WORDPRESS = "/usr/share/wordpress";
const CONFIG_NAME = "esgbench";
const CONFIG_FILE = `/etc/wordpress/config-${CONFIG_NAME}.php`;
const DB = { name: "esgbench_wordpress", user: "esgbench", password: "esgbench" };
const CACHE = path.join(root, "node_modules/.cache/esg-bench", `wordpress-site-v${SITE_VERSION}`);
const PHP_WORKERS = 6;

export interface WordPress { url: string; auth: string; stop(): Promise<void> }

/** What is missing for the WordPress section, or null when it can run. */
export function wordpressMissing(): string | null {
  for (const [file, what] of [[`${WORDPRESS}/wp-load.php`, "the wordpress package"], ["/usr/sbin/nginx", "nginx"], ["/usr/sbin/php-fpm8.2", "php8.2-fpm"], ["/usr/bin/php8.2", "php8.2-cli"]]) {
    if (!fs.existsSync(file)) return `${what} is not installed`;
  }
  try { mysql("SELECT 1"); } catch { return "MariaDB does not answer `mysql -uroot` on this machine"; }
  return null;
}

function mysql(sql: string, database?: string): string {
  return execFileSync("mysql", ["-uroot", "-N", ...(database ? [database] : []), "-e", sql], { encoding: "utf8" });
}

function writeConfig(port: number): void {
  fs.writeFileSync(CONFIG_FILE, `<?php
// Written by npm run bench (bench/lib/stack-wordpress.ts) for its own WordPress; safe to delete.
define('DB_NAME', '${DB.name}');
define('DB_USER', '${DB.user}');
define('DB_PASSWORD', '${DB.password}');
define('DB_HOST', '127.0.0.1');
define('WP_HOME', 'http://127.0.0.1:${port}');
define('WP_SITEURL', 'http://127.0.0.1:${port}');
// Application passwords over plain HTTP, as on a developer's machine.
define('WP_ENVIRONMENT_TYPE', 'local');
// No cron spawned from page loads in the middle of a measurement.
define('DISABLE_WP_CRON', true);
`);
}

function resetDatabase(): void {
  mysql(`DROP DATABASE IF EXISTS ${DB.name}; CREATE DATABASE ${DB.name};
    CREATE USER IF NOT EXISTS '${DB.user}'@'127.0.0.1' IDENTIFIED BY '${DB.password}';
    GRANT ALL ON ${DB.name}.* TO '${DB.user}'@'127.0.0.1';`);
}

async function seed(port: number, log: (line: string) => void): Promise<void> {
  const began = performance.now();
  log("Seeding WordPress with the bench site (first run only)…");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-wp-seed-"));
  try {
    const site = siteData();
    fs.writeFileSync(path.join(dir, "site.json"), JSON.stringify(site));
    for (const [i, m] of site.images.entries()) fs.writeFileSync(path.join(dir, m.filename), await imageBytes(i));
    const env = { ...process.env, WORDPRESS_CONFIG: CONFIG_NAME, HTTP_HOST: `127.0.0.1:${port}` };
    const php = (phase: string) => execFileSync("php8.2", [path.join(root, "bench/lib/wordpress-seed.php"), phase, path.join(dir, "site.json"), dir], { env, encoding: "utf8" });
    php("install");
    const { applicationPassword } = JSON.parse(php("seed").trim().split("\n").at(-1)!) as { applicationPassword: string };
    fs.mkdirSync(CACHE, { recursive: true });
    fs.writeFileSync(path.join(CACHE, "dump.sql"), execFileSync("mysqldump", ["-uroot", DB.name], { maxBuffer: 1 << 30 }));
    fs.writeFileSync(path.join(CACHE, "application-password"), applicationPassword);
    log(`  seeded in ${((performance.now() - began) / 1000).toFixed(0)} s`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Restores (or first seeds) the site, then starts php-fpm and nginx; resolves once the REST index answers. */
export async function startWordPress(log: (line: string) => void): Promise<WordPress> {
  const [port, fpmPort] = [await freePort(), await freePort()];
  writeConfig(port);
  resetDatabase();
  if (fs.existsSync(path.join(CACHE, "dump.sql"))) execFileSync("sh", ["-c", `mysql -uroot ${DB.name} < "${path.join(CACHE, "dump.sql")}"`]);
  else await seed(port, log);
  const password = fs.readFileSync(path.join(CACHE, "application-password"), "utf8").trim();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-wp-"));
  fs.writeFileSync(path.join(dir, "php-fpm.conf"), `[global]
pid = ${dir}/php-fpm.pid
error_log = ${dir}/php-fpm.log
daemonize = no
[bench]
user = www-data
group = www-data
listen = 127.0.0.1:${fpmPort}
pm = static
pm.max_children = ${PHP_WORKERS}
php_admin_value[opcache.enable] = 1
php_admin_value[memory_limit] = 256M
`);
  fs.writeFileSync(path.join(dir, "nginx.conf"), `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  include /etc/nginx/mime.types;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/body; fastcgi_temp_path ${dir}/fastcgi; proxy_temp_path ${dir}/proxy; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${WORDPRESS};
    index index.php;
    location / { try_files $uri $uri/ /index.php?$args; }
    location ~ \\.php$ {
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
      fastcgi_param WORDPRESS_CONFIG ${CONFIG_NAME};
      fastcgi_pass 127.0.0.1:${fpmPort};
    }
  }
}
`);
  const fpm = spawnGroup("php-fpm8.2", ["-F", "-y", path.join(dir, "php-fpm.conf")], {});
  const nginx = spawnGroup("nginx", ["-c", path.join(dir, "nginx.conf")], {});
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor200(`${url}/wp-json/`, nginx.child, () => `${nginx.output()}\n${fpm.output()}`, 60_000);
  } catch (error) {
    await Promise.all([stopGroup(nginx.child), stopGroup(fpm.child)]);
    throw error;
  }
  return {
    url, auth: `Basic ${Buffer.from(`admin:${password}`).toString("base64")}`,
    stop: async () => {
      await Promise.all([stopGroup(nginx.child), stopGroup(fpm.child)]);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
