/** Catalogue part 2, group 3a: see ./types.ts. */
import Eventbrite from "@tessera/core/providers/eventbrite";
import EVEOnline from "@tessera/core/providers/eveonline";
import FACEIT from "@tessera/core/providers/faceit";
import Foursquare from "@tessera/core/providers/foursquare";
import HubSpot from "@tessera/core/providers/hubspot";
import Instagram from "@tessera/core/providers/instagram";
import Kakao from "@tessera/core/providers/kakao";
import Mailchimp from "@tessera/core/providers/mailchimp";
import Mailru from "@tessera/core/providers/mailru";
import Mastodon from "@tessera/core/providers/mastodon";
import Mattermost from "@tessera/core/providers/mattermost";
import { credentials, type Factory, type ProviderGroup } from "./types.js";

const NO_SCOPE_REASON =
  "no scope is sent: Auth.js's parser adds `openid profile email` to an OAuth 2 provider naming none, scopes Foursquare, Mailchimp and Mattermost do not define";

const EVENTBRITE_USER = {
  id: "1234567890",
  name: "Ada Lovelace",
  first_name: "Ada",
  last_name: "Lovelace",
  is_public: false,
  image_id: "502337279",
  emails: [
    { email: "ada@old.example.com", verified: true, primary: false },
    { email: "ada@example.com", verified: true, primary: true },
  ],
};

const FOURSQUARE_USER = {
  id: "1234567",
  firstName: "Ada",
  lastName: "Lovelace",
  gender: "female",
  relationship: "self",
  photo: { prefix: "https://fastly.4sqi.net/img/user/", suffix: "/1234567-ABCDEF.jpg" },
  contact: { email: "ada@example.com", verified: true },
};

const KAKAO_USER = {
  id: 1234567890,
  connected_at: "2024-05-01T08:30:00Z",
  properties: { nickname: "에이다", profile_image: "http://k.kakaocdn.net/dn/p/img_640x640.jpg" },
  kakao_account: {
    profile_nickname_needs_agreement: false,
    profile_image_needs_agreement: false,
    profile: {
      nickname: "에이다",
      thumbnail_image_url: "http://k.kakaocdn.net/dn/p/img_110x110.jpg",
      profile_image_url: "http://k.kakaocdn.net/dn/p/img_640x640.jpg",
      is_default_image: false,
    },
    email_needs_agreement: false,
    is_email_valid: true,
    is_email_verified: true,
    email: "ada@kakao.com",
  },
};

const MASTODON_ACCOUNT = {
  id: "109302837439",
  username: "ada",
  acct: "ada",
  display_name: "Ada Lovelace",
  locked: false,
  bot: false,
  created_at: "2022-11-07T00:00:00.000Z",
  note: "<p>Analyst</p>",
  url: "https://mastodon.example/@ada",
  avatar: "https://files.mastodon.example/accounts/avatars/original/ada.gif",
  avatar_static: "https://files.mastodon.example/accounts/avatars/original/ada.png",
  header: "https://mastodon.example/headers/original/missing.png",
  header_static: "https://mastodon.example/headers/original/missing.png",
  followers_count: 12,
  following_count: 34,
  statuses_count: 56,
  last_status_at: "2024-05-01",
};

const MATTERMOST_USER = {
  id: "8gb7zzm4ajnh8ry4bq1ksmuxeo",
  create_at: 1714550400000,
  update_at: 1714550400000,
  delete_at: 0,
  username: "ada",
  auth_data: "",
  auth_service: "",
  email: "ada@example.com",
  email_verified: true,
  nickname: "",
  first_name: "Ada",
  last_name: "Lovelace",
  position: "",
  roles: "system_user",
  locale: "en",
};

/** The server URL both libraries' Mastodon and Mattermost providers are given. */
const withInstance = (url: string) => () => ({ ...credentials(), issuer: url });

export const group3a: ProviderGroup = {
  pairs: [
    {
      id: "eventbrite",
      options: credentials,
      profiles: [
        EVENTBRITE_USER,
        { ...EVENTBRITE_USER, image_id: null },
        {
          ...EVENTBRITE_USER,
          emails: [{ email: "ada@example.com", verified: false, primary: false }],
        },
      ],
    },
    {
      id: "eveonline",
      options: credentials,
      profiles: [
        {
          CharacterID: 2112625428,
          CharacterName: "Ada Capsuleer",
          ExpiresOn: "2024-05-01T08:50:00",
          Scopes: "publicData",
          TokenType: "Character",
          CharacterOwnerHash: "YBa4Cr7QwyiBdQNzKUWcDf0yFuE=",
          IntellectualProperty: "EVE",
        },
      ],
    },
    {
      id: "faceit",
      options: credentials,
      profiles: [
        {
          guid: "0b2a3e2c-5f1d-4a8e-9a3f-1c2d3e4f5a6b",
          name: "Ada Lovelace",
          nickname: "ada",
          email: "ada@example.com",
          picture: "https://assets.faceit-cdn.net/avatars/ada.jpg",
          locale: "en",
        },
        { guid: "0b2a3e2c-5f1d-4a8e-9a3f-1c2d3e4f5a6b", nickname: "ada" },
      ],
    },
    {
      id: "foursquare",
      options: credentials,
      profiles: [
        { meta: { code: 200 }, response: { user: FOURSQUARE_USER } },
        { meta: { code: 200 }, response: { user: { ...FOURSQUARE_USER, photo: undefined } } },
      ],
    },
    {
      id: "hubspot",
      options: credentials,
      profiles: [
        {
          token: "CJSP5qf1KhICAQEYs-gDIIGOBii1hQIyGQAf3xBKmlwHjX7OIpuIFEavB2-qYAGQsF4",
          user: "ada@example.com",
          hub_domain: "example.com",
          scopes: ["oauth"],
          hub_id: 62515,
          app_id: 456,
          expires_in: 21588,
          user_id: 123,
          token_type: "access",
        },
      ],
    },
    {
      id: "instagram",
      options: credentials,
      profiles: [
        { id: "17841405793187218", username: "ada.codes", account_type: "BUSINESS", name: "Ada" },
        { id: "17841405793187219", username: "ada.creates", account_type: "MEDIA_CREATOR" },
      ],
    },
    {
      id: "kakao",
      options: credentials,
      profiles: [
        KAKAO_USER,
        // The user agreed to share nothing: only the id.
        { id: 1234567891, connected_at: "2024-05-01T08:30:00Z", kakao_account: {} },
        { id: 1234567892 },
      ],
    },
    {
      id: "mailchimp",
      options: credentials,
      profiles: [
        {
          dc: "us6",
          role: "owner",
          accountname: "Analytical Engines Ltd",
          user_id: 48151623,
          login: {
            email: "ada@example.com",
            avatar: null,
            login_id: 48151623,
            login_name: "ada",
            login_email: "ada@example.com",
          },
          login_url: "https://login.mailchimp.com",
          api_endpoint: "https://us6.api.mailchimp.com",
        },
      ],
    },
    {
      id: "mailru",
      options: credentials,
      profiles: [
        {
          id: "1234567890123456789",
          client_id: "client-id",
          gender: "f",
          name: "Ада Лавлейс",
          nickname: "ada",
          locale: "ru_RU",
          first_name: "Ада",
          last_name: "Лавлейс",
          birthday: "10.12.1815",
          image: "https://filin.mail.ru/pic?d=abc&width=180&height=180",
          email: "ada@mail.ru",
        },
        { id: "1234567890123456780", nickname: "ada", email: "ada@mail.ru" },
      ],
    },
    {
      id: "mastodon",
      options: withInstance("https://mastodon.example"),
      profiles: [MASTODON_ACCOUNT],
    },
    {
      id: "mattermost",
      options: withInstance("https://chat.example.com"),
      profiles: [MATTERMOST_USER, { ...MATTERMOST_USER, username: undefined }],
    },
  ],
  differences: [
    ...(["foursquare", "mailchimp", "mattermost"] as const).map((id) => ({
      id,
      field: "authorization" as const,
      reason: NO_SCOPE_REASON,
    })),
    {
      id: "foursquare",
      field: "client",
      reason:
        "Foursquare documents client_id and client_secret as parameters of the token request (client_secret_post)",
    },
    {
      id: "instagram",
      field: "authorization",
      reason:
        "www.instagram.com/oauth/authorize with instagram_business_basic (Instagram API with Instagram Login); Auth.js asks for user_profile of the Basic Display API, shut down on 4 December 2024",
    },
  ],
  factories: (
    [
      ["eventbrite", Eventbrite],
      ["eveonline", EVEOnline],
      ["faceit", FACEIT],
      ["foursquare", Foursquare],
      ["hubspot", HubSpot],
      ["instagram", Instagram],
      ["kakao", Kakao],
      ["mailchimp", Mailchimp],
      ["mailru", Mailru],
      ["mastodon", Mastodon],
      ["mattermost", Mattermost],
    ] as [string, unknown][]
  ).map(([id, factory]) => [id, factory as Factory]),
  needsIssuer: ["mastodon", "mattermost"],
};
