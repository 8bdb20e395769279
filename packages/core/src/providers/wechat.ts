/**
 * WeChat sign-in (OAuth 2 with WeChat's own parameter names). Two platforms, chosen with
 * `platformType`:
 *
 * - `"OfficialAccount"` (default): webpage authorization of a WeChat Official Account, for pages
 *   opened inside WeChat; `https://open.weixin.qq.com/connect/oauth2/authorize` with the scope
 *   `snsapi_userinfo`.
 * - `"WebsiteApp"`: QR-code login of a website application of the WeChat Open Platform;
 *   `https://open.weixin.qq.com/connect/qrconnect` with the scope `snsapi_login`.
 *
 * WeChat names the client id `appid` and the secret `secret`: the authorization request carries
 * `appid` (from `clientId`, else `AUTH_WECHAT_ID`), and the code is exchanged with
 * `GET https://api.weixin.qq.com/sns/oauth2/access_token?appid=…&secret=…&code=…`. That answer
 * has no `token_type` and names the user's `openid`, which the profile request
 * `GET https://api.weixin.qq.com/sns/userinfo?access_token=…&openid=…&lang=zh_CN` needs. WeChat
 * reports failures as HTTP 200 with an `errcode`, which fail the sign-in with WeChat's code and
 * message in the log. Only the `state` check is used (WeChat has no PKCE).
 *
 * The user's id is the `unionid`, the same across every app of one WeChat Open Platform
 * account; WeChat sends it only when the Official Account or website app is bound to an Open
 * Platform account. Without one the sign-in fails with a message saying so; map `openid` (one
 * per app) in `profile` if binding is not possible. WeChat gives no e-mail address.
 *
 * Deliberate difference from Auth.js: the code is exchanged with a GET request whose query
 * carries `appid`, `secret` and `code`, as WeChat documents, with the credentials resolved at
 * sign-in (so `AUTH_WECHAT_ID`/`AUTH_WECHAT_SECRET` work); Auth.js posts them as form parameters
 * fixed when the provider is created, and hands oauth4webapi WeChat's `text/plain` answer, which
 * it refuses, so its WeChat sign-in fails.
 *
 * Deliberate difference from Auth.js: the authorization URL ends with `#wechat_redirect`, which
 * WeChat requires of authorization pages reached by a redirect.
 *
 * Callback URL to register: the domain of `<origin>/auth/callback/wechat` as the "authorization
 * callback domain" (Official Account: 网页授权域名; website app: 授权回调域). Credentials from
 * `AUTH_WECHAT_ID` (the AppID) and `AUTH_WECHAT_SECRET` (the AppSecret).
 *
 * @example
 * ```ts
 * import WeChat from "@tessera/core/providers/wechat"
 * const config = { providers: [WeChat({ platformType: "WebsiteApp" })] }
 * ```
 */
import { OAuthCallbackError } from "../errors.js";
import { processEnv } from "../lib/config/env.js";
import { providerJson } from "../lib/oauth/provider-request.js";
import type { InternalOAuthProvider, OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://api.weixin.qq.com/sns/userinfo`. */
export interface WeChatProfile {
  openid: string;
  nickname: string;
  /** 1 male, 2 female, 0 unknown. */
  sex: number;
  province: string;
  city: string;
  country: string;
  headimgurl: string;
  privilege: string[];
  /** Present only when the app is bound to a WeChat Open Platform account. */
  unionid: string;
  [claim: string]: unknown;
}

/** Which WeChat login: an Official Account's webpage authorization, or a website's QR code. */
export type WeChatPlatformType = "OfficialAccount" | "WebsiteApp";

/** Options of {@link WeChat}: provider overrides plus the platform. */
export interface WeChatOptions<P extends WeChatProfile = WeChatProfile> extends OAuthUserConfig<P> {
  /** Default `"OfficialAccount"`. */
  platformType?: WeChatPlatformType;
}

const TOKEN_URL = "https://api.weixin.qq.com/sns/oauth2/access_token";
const PROFILE_URL = "https://api.weixin.qq.com/sns/userinfo";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A WeChat API answer: JSON served as `text/plain`, a failure being HTTP 200 with a non-zero
 * `errcode` and its `errmsg`.
 */
async function weChatJson(
  provider: Pick<InternalOAuthProvider, "id">,
  url: URL,
  what: string,
): Promise<Record<string, unknown>> {
  const body = await providerJson(provider, url);
  if (!isObject(body))
    throw new OAuthCallbackError(`WeChat's ${what} answered something other than an object.`);
  if (body.errcode !== undefined && body.errcode !== 0)
    throw new OAuthCallbackError(
      `WeChat's ${what} failed: errcode ${String(body.errcode)} (${String(body.errmsg)}).`,
    );
  return body;
}

/**
 * WeChat provider.
 *
 * @example
 * ```ts
 * WeChat({ platformType: "OfficialAccount", clientId: process.env.WECHAT_APP_ID })
 * ```
 */
export default function WeChat<P extends WeChatProfile = WeChatProfile>(
  options: WeChatOptions<P> = {},
): OAuthConfig<P> {
  const { platformType = "OfficialAccount", ...rest } = options;
  const officialAccount = platformType === "OfficialAccount";
  // `appid` is an authorization parameter, so the client id is read here (options, then env).
  const appid = options.clientId ?? processEnv().AUTH_WECHAT_ID;
  return {
    id: "wechat",
    name: "WeChat",
    type: "oauth",
    checks: ["state"],
    authorization: {
      url: officialAccount
        ? "https://open.weixin.qq.com/connect/oauth2/authorize#wechat_redirect"
        : "https://open.weixin.qq.com/connect/qrconnect#wechat_redirect",
      params: { appid, scope: officialAccount ? "snsapi_userinfo" : "snsapi_login" },
    },
    token: {
      url: TOKEN_URL,
      async request({ provider, params }) {
        const url = new URL(provider.token?.url ?? TOKEN_URL);
        for (const [name, value] of Object.entries(provider.token?.params ?? {}))
          url.searchParams.set(name, value);
        url.searchParams.set("appid", provider.clientId ?? "");
        url.searchParams.set("secret", provider.clientSecret ?? "");
        url.searchParams.set("code", params.code ?? "");
        url.searchParams.set("grant_type", "authorization_code");
        const tokens = await weChatJson(provider, url, "code exchange");
        // WeChat's access token is a bearer token; its answer does not say so.
        return { tokens: { ...tokens, token_type: "bearer" } };
      },
    },
    userinfo: {
      url: PROFILE_URL,
      async request({ tokens, provider }) {
        if (typeof tokens.openid !== "string" || !tokens.openid)
          throw new OAuthCallbackError("WeChat's token response names no openid.");
        const url = new URL(provider.userinfo?.url ?? PROFILE_URL);
        url.searchParams.set("access_token", String(tokens.access_token));
        url.searchParams.set("openid", tokens.openid);
        url.searchParams.set("lang", "zh_CN");
        return weChatJson(provider, url, "user info");
      },
    },
    profile(profile) {
      if (!profile.unionid)
        throw new Error(
          "WeChat sent no unionid: bind the app to a WeChat Open Platform account, or map `openid` in `profile`.",
        );
      return {
        id: profile.unionid,
        name: profile.nickname,
        email: null,
        image: profile.headimgurl,
      };
    },
    style: { brandColor: "#07C160" },
    options: rest,
  };
}
