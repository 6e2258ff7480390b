// Captcha checks through reCAPTCHA Enterprise (WPDM verifies its download captcha there):
// POST {RECAPTCHA_URL}/projects/{project}/assessments?key={api key} with the token, the site key and
// the expected action; valid when tokenProperties.valid is true and the action matches. The
// verifier is an interface: tests hand the service a local fake through RECAPTCHA_URL.
import { httpClientFor, type HttpClient } from "../../../lib/http-client.ts";
import type { Config } from "../../../lib/config.ts";

export interface CaptchaVerifier {
  verify(token: string, expectedAction: string): Promise<boolean>;
}

export function recaptchaEnterpriseVerifier(config: Pick<Config, "formsPlugins" | "httpAllowedHosts">, client: HttpClient = httpClientFor(config)): CaptchaVerifier {
  const { url, projectId, apiKey, siteKey } = config.formsPlugins.recaptcha;
  return {
    async verify(token, expectedAction) {
      if (!projectId || !apiKey || !siteKey || !token) return false;
      try {
        const response = await client.request(`${url.replace(/\/+$/, "")}/projects/${encodeURIComponent(projectId)}/assessments?key=${encodeURIComponent(apiKey)}`, {
          method: "POST", headers: { "content-type": "application/json" }, timeoutMs: 10_000, maxBytes: 256 * 1024,
          body: JSON.stringify({ event: { token, siteKey, expectedAction } }),
        });
        if (response.status !== 200) return false;
        const body = JSON.parse(response.text()) as { tokenProperties?: { valid?: unknown; action?: unknown } };
        return body.tokenProperties?.valid === true && (body.tokenProperties.action === undefined || body.tokenProperties.action === expectedAction);
      } catch {
        return false;
      }
    },
  };
}
