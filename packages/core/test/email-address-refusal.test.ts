/**
 * A refused e-mail address on the built-in sign-in page: the redirect names the reason
 * (`&code=`) and carries what was typed, and the page says why and shows the address again.
 */

import Email from "@tessera/core/providers/email";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { baseConfig, requestLink } from "./email-helpers.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

function setup() {
  const sent: string[] = [];
  const { logger } = recordingLogger();
  const config = baseConfig({
    secret: SECRET,
    adapter: MemoryAdapter(createMemoryStore()),
    providers: [
      Email({
        sendVerificationRequest: async ({ identifier }) => {
          sent.push(identifier);
        },
      }),
    ],
    logger,
  });
  return { sent, client: new Client(config) };
}

describe("a refused e-mail address", () => {
  it.each([
    ["two @", "ada@home@example.com", "address-one-at", "exactly one @"],
    ["no domain name", "ada@localhost", "address-domain", "not a domain name"],
    ["a quoted local part", '"ada"@example.com', "address-quoted", "with quotes"],
  ])("with %s keeps what was typed and says why", async (_name, typed, code, reason) => {
    const { client, sent } = setup();
    const refused = await requestLink(client, "email", typed);
    expect(refused.status).toBe(302);
    const location = new URL(refused.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/auth/signin`);
    expect(location.searchParams.get("error")).toBe("EmailSignin");
    expect(location.searchParams.get("code")).toBe(code);
    expect(location.searchParams.get("email")).toBe(typed);
    expect(sent).toEqual([]);

    const page = await (await client.get(`${location.pathname}${location.search}`)).text();
    expect(page).toContain("That e-mail address was not accepted.");
    expect(page).toContain(reason);
    // The address is back in the field, escaped (it is whatever the form carried).
    const escaped = typed.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
    expect(page).toContain(`value="${escaped}"`);
  });

  it("never prints an unknown code: the page falls back to the generic e-mail message", async () => {
    const { client } = setup();
    const page = await (
      await client.get("/auth/signin?error=EmailSignin&code=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    ).text();
    expect(page).toContain("Check the address and try again.");
    expect(page).not.toContain("was not accepted");
    expect(page).not.toContain("<script>alert(1)");
  });

  it("sends a failure to deliver without a code, so the page does not blame the address", async () => {
    const { logger } = recordingLogger();
    const client = new Client(
      baseConfig({
        secret: SECRET,
        adapter: MemoryAdapter(createMemoryStore()),
        providers: [
          Email({
            sendVerificationRequest: async () => {
              throw new Error("SMTP server refused the connection");
            },
          }),
        ],
        logger,
      }),
    );
    const failed = await requestLink(client, "email", "ada@example.com");
    const location = new URL(failed.headers.get("location") ?? "");
    expect(location.searchParams.get("error")).toBe("EmailSignin");
    expect(location.searchParams.has("code")).toBe(false);
    expect(location.searchParams.has("email")).toBe(false);
  });
});
