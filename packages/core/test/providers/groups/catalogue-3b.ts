/** Catalogue part 2, group 3b: see ./types.ts. */
import Naver from "@tessera/core/providers/naver";
import NetSuite from "@tessera/core/providers/netsuite";
import Nextcloud from "@tessera/core/providers/nextcloud";
import Notion from "@tessera/core/providers/notion";
import Osso from "@tessera/core/providers/osso";
import Osu from "@tessera/core/providers/osu";
import Patreon from "@tessera/core/providers/patreon";
import Pinterest from "@tessera/core/providers/pinterest";
import Pipedrive from "@tessera/core/providers/pipedrive";
import Reddit from "@tessera/core/providers/reddit";
import Strava from "@tessera/core/providers/strava";
import { credentials, type Difference, type Factory, type ProviderGroup } from "./types.js";

/** NetSuite's account and the RESTlet answering the current user, which it cannot do without. */
const NETSUITE_OPTIONS = {
  accountID: "TSTDRV1234567",
  userinfo:
    "https://tstdrv1234567.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=123&deploy=1",
};

const NOTION_OWNER = {
  object: "user",
  id: "e79a0b74-3aba-4149-9f74-0bb5791a6ee6",
  name: "Avocado Lovelace",
  avatar_url: "https://s3-us-west-2.amazonaws.com/public.notion-static.com/avocado.jpg",
  type: "person",
  person: { email: "avo@example.org" },
};

const NEXTCLOUD_USER = {
  enabled: true,
  storageLocation: "/var/www/nextcloud/data/frank",
  id: "frank",
  lastLogin: 1700000000000,
  backend: "Database",
  email: "frank@cloud.example.com",
  displayname: "Frank K.",
  phone: "",
  address: "Foobar 12, 12345 Town",
  website: "https://nextcloud.com",
  twitter: "Nextcloud",
  groups: ["admin", "group1"],
  language: "en",
  locale: "en_US",
};

/** Providers that define no scope: Auth.js's parser adds `openid profile email`, Tessera none. */
const noScope = (id: string, what: string): Difference => ({
  id,
  field: "authorization",
  reason: `no scope is sent: ${what}; Auth.js's parser adds \`openid profile email\` to an OAuth 2 provider naming none`,
});

export const group3b: ProviderGroup = {
  pairs: [
    {
      id: "naver",
      options: credentials,
      profiles: [
        {
          resultcode: "00",
          message: "success",
          response: {
            id: "32742776",
            nickname: "OpenAPI",
            name: "오픈 API",
            email: "openapi@naver.com",
            gender: "F",
            age: "40-49",
            birthday: "10-01",
            profile_image: "https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif",
          },
        },
        // Only the fields the user agreed to share are returned.
        { resultcode: "00", message: "success", response: { id: "32742777" } },
      ],
    },
    {
      id: "netsuite",
      options: () => ({ ...credentials(), ...NETSUITE_OPTIONS }),
      profiles: [
        {
          id: 1234,
          name: "Larry Nelson",
          email: "larry@example.com",
          location: 1,
          role: 3,
          contact: 0,
        },
      ],
    },
    {
      id: "nextcloud",
      options: () => ({ ...credentials(), issuer: "https://cloud.example.com" }),
      profiles: [NEXTCLOUD_USER, { ...NEXTCLOUD_USER, email: null }],
    },
    {
      id: "notion",
      options: credentials,
      profiles: [NOTION_OWNER, { ...NOTION_OWNER, avatar_url: null }],
    },
    {
      id: "osso",
      options: () => ({ ...credentials(), issuer: "https://demo.ossoapp.com/" }),
      profiles: [
        {
          id: "2e1a4b4d-d5bd-4d5b-9e4d-1c2ff24d0e5f",
          email: "user@example.com",
          idp: "OKTA",
          requested: { domain: "example.com", redirect_uri: "https://app.example/auth/callback" },
        },
      ],
    },
    {
      id: "osu",
      options: credentials,
      profiles: [
        {
          avatar_url: "https://a.ppy.sh/2?1519081077.png",
          country_code: "AU",
          default_group: "default",
          id: 2,
          is_active: true,
          is_bot: false,
          is_deleted: false,
          is_online: false,
          is_supporter: true,
          last_visit: null,
          pm_friends_only: false,
          profile_colour: "#3366FF",
          username: "peppy",
          join_date: "2007-08-28T03:09:12+00:00",
          playmode: "osu",
        },
      ],
    },
    {
      id: "patreon",
      options: credentials,
      profiles: [
        {
          data: {
            id: "12345689",
            type: "user",
            attributes: {
              full_name: "Corgi The Dev",
              email: "corgi@example.com",
              image_url: "https://c8.patreon.com/2/200/12345689",
              vanity: "corgithedev",
            },
          },
          links: { self: "https://www.patreon.com/api/user/12345689" },
        },
      ],
    },
    {
      id: "pinterest",
      options: credentials,
      profiles: [
        {
          account_type: "PINNER",
          profile_image: "https://i.pinimg.com/280x280_RS/01/02/03/0102030405.jpg",
          website_url: "https://www.example.com",
          username: "pinterestdev",
          board_count: 12,
        },
      ],
    },
    {
      id: "pipedrive",
      options: credentials,
      profiles: [
        {
          success: true,
          data: {
            id: 777,
            name: "James Bond",
            default_currency: "USD",
            locale: "en_US",
            email: "bond@example.com",
            icon_url: "https://d3myhnqlqw2314.cloudfront.net/profile_120x120_622732.jpg",
            is_you: true,
            company_id: 1,
            company_name: "MI6",
            company_domain: "casinoroyale",
          },
        },
        { success: true, data: { id: 778, name: "Eve", email: "eve@example.com", icon_url: null } },
      ],
    },
    {
      id: "reddit",
      options: credentials,
      profiles: [
        {
          id: "1w72",
          name: "spez",
          icon_img: "https://styles.redditmedia.com/t5_3k30p/styles/profileIcon.png",
          created_utc: 1118030400,
          has_verified_email: true,
          over_18: true,
        },
      ],
    },
    {
      id: "strava",
      options: credentials,
      profiles: [
        {
          id: 134815,
          username: "marianne_t",
          resource_state: 3,
          firstname: "Marianne",
          lastname: "Teutenberg",
          city: "San Francisco",
          state: "CA",
          country: "US",
          sex: "F",
          premium: true,
          profile_medium: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/medium.jpg",
          profile: "https://dgalywyr863hv.cloudfront.net/pictures/athletes/large.jpg",
        },
      ],
    },
  ],
  differences: [
    noScope(
      "naver",
      "Naver Login has no scopes (the profile fields are chosen in the app's settings)",
    ),
    noScope("nextcloud", "Nextcloud's OAuth 2 app has no scopes"),
    noScope("osso", "Osso has no scopes"),
    noScope("pipedrive", "Pipedrive grants the scopes set in the app's settings"),
    {
      id: "notion",
      field: "authorization",
      reason:
        "the callback URL is the redirect_uri, as for every provider (Auth.js sends its `redirectUri` option, the text `undefined` without it), and no scope is sent: Notion has none, Auth.js's parser adds `openid profile email`",
    },
    {
      id: "notion",
      field: "userinfo",
      reason:
        "the declared URL is the one requested, /v1/users/me; Auth.js declares /v1/users and requests /v1/users/me whatever is configured",
    },
  ],
  factories: [
    ["naver", Naver as Factory],
    ["netsuite", NetSuite as Factory],
    ["nextcloud", Nextcloud as Factory],
    ["notion", Notion as Factory],
    ["osso", Osso as Factory],
    ["osu", Osu as Factory],
    ["patreon", Patreon as Factory],
    ["pinterest", Pinterest as Factory],
    ["pipedrive", Pipedrive as Factory],
    ["reddit", Reddit as Factory],
    ["strava", Strava as Factory],
  ],
  needsIssuer: ["nextcloud", "osso"],
  requiredOptions: { netsuite: NETSUITE_OPTIONS },
};
