/**
 * Discord sign-in (OAuth 2). The avatar URL follows Discord's CDN rules: animated avatars (`a_`
 * hashes) as GIF, users without one get their default avatar.
 *
 * Deliberate difference from Auth.js: Discord's `verified` flag is read (`emailVerified`). An
 * address Discord has not verified is kept as the user's `email`, as Auth.js does, but never
 * links an account, never lets an e-mail link open the user and never counts as verified, so
 * that nobody is signed in to the account of an address they have not proven to own; a verified
 * one is stored with `emailVerified` set. See docs/migrating-from-authjs.md.
 *
 * Deliberate difference from Auth.js: the authorization URL is `https://discord.com/oauth2/authorize`,
 * the one Discord documents; Auth.js uses the legacy alias under `/api/`.
 *
 * Callback URL to register: `<origin>/auth/callback/discord`. Credentials from
 * `AUTH_DISCORD_ID` and `AUTH_DISCORD_SECRET`.
 *
 * @example
 * ```ts
 * import Discord from "@tessera/core/providers/discord"
 * const config = { providers: [Discord] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The user from `GET /users/@me`. */
export interface DiscordProfile {
  id: string;
  username: string;
  /** `"0"` for users on the new username system. */
  discriminator: string;
  global_name: string | null;
  avatar: string | null;
  bot?: boolean;
  mfa_enabled?: boolean;
  banner?: string | null;
  accent_color?: number | null;
  locale?: string;
  verified?: boolean;
  email?: string | null;
  flags?: number;
  premium_type?: number;
  public_flags?: number;
  [claim: string]: unknown;
}

const CDN = "https://cdn.discordapp.com";

/** The avatar URL Discord shows for `profile`. */
export function discordAvatarUrl(profile: DiscordProfile): string {
  if (profile.avatar) {
    const format = profile.avatar.startsWith("a_") ? "gif" : "png";
    return `${CDN}/avatars/${profile.id}/${profile.avatar}.${format}`;
  }
  // Default avatars: by user id on the new username system, by discriminator on the old one.
  const index =
    profile.discriminator === "0" || !profile.discriminator
      ? Number((BigInt(profile.id) >> 22n) % 6n)
      : Number(profile.discriminator) % 5;
  return `${CDN}/embed/avatars/${index}.png`;
}

/**
 * Discord provider.
 *
 * @example
 * ```ts
 * Discord({ authorization: { params: { scope: "identify email guilds" } } })
 * ```
 */
export default function Discord<P extends DiscordProfile = DiscordProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "discord",
    name: "Discord",
    type: "oauth",
    authorization: {
      url: "https://discord.com/oauth2/authorize",
      params: { scope: "identify email" },
    },
    token: "https://discord.com/api/oauth2/token",
    userinfo: "https://discord.com/api/users/@me",
    profile(profile) {
      return {
        id: profile.id,
        name: profile.global_name ?? profile.username,
        email: profile.email ?? null,
        image: discordAvatarUrl(profile),
      };
    },
    // Discord reports whether the address is verified; an unverified one proves nothing.
    emailVerified: (profile) =>
      typeof profile.verified === "boolean" ? profile.verified : undefined,
    style: { brandColor: "#5865F2" },
    options,
  };
}
