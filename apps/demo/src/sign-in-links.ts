/**
 * Which e-mail sign-in links in the demo mailbox were used already (or expired): a link carries
 * its raw token and address, and Tessera stores the token as `sha256hex(token + secret)` until
 * the link is used, so a link whose stored token is gone cannot sign anyone in any more.
 */
import { createHash } from "node:crypto";
import type { DemoDatabase } from "./database.js";

/** The secrets of a configuration, first to last (`secret` may be a list for rotation). */
function secretList(secret: string | string[] | undefined): string[] {
  if (secret === undefined) return [];
  return Array.isArray(secret) ? secret : [secret];
}

/**
 * The links among `links` that are sign-in links no longer usable. Links without a `token` and
 * `email` parameter are not sign-in links and never count as used.
 *
 * @example
 * ```ts
 * const used = await usedSignInLinks(["http://localhost:3000/auth/callback/email?token=…&email=…"], secret, database)
 * ```
 */
export async function usedSignInLinks(
  links: readonly string[],
  secret: string | string[] | undefined,
  database: Pick<DemoDatabase, "signInLinkPending">,
): Promise<Set<string>> {
  const used = new Set<string>();
  for (const link of links) {
    const { searchParams } = new URL(link);
    const token = searchParams.get("token");
    const identifier = searchParams.get("email");
    if (!token || !identifier) continue;
    const hashes = secretList(secret).map((value) =>
      createHash("sha256").update(`${token}${value}`).digest("hex"),
    );
    if (!(await database.signInLinkPending(identifier, hashes))) used.add(link);
  }
  return used;
}
