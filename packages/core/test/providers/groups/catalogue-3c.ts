/** Catalogue part 2, group 3c (Threads to Zoom): see ./types.ts. */
import Threads from "@tessera/core/providers/threads";
import Todoist from "@tessera/core/providers/todoist";
import Trakt from "@tessera/core/providers/trakt";
import Webex from "@tessera/core/providers/webex";
import WeChat from "@tessera/core/providers/wechat";
import Wikimedia from "@tessera/core/providers/wikimedia";
import WordPress from "@tessera/core/providers/wordpress";
import WorkOS from "@tessera/core/providers/workos";
import Zoho from "@tessera/core/providers/zoho";
import Zoom from "@tessera/core/providers/zoom";
import { credentials, type Factory, type ProviderGroup } from "./types.js";

const TRAKT_USER = {
  username: "sean",
  private: false,
  name: "Sean Rudford",
  vip: true,
  vip_ep: false,
  ids: { slug: "sean", uuid: "b6589fc6ab0dc82cf12099d1c2d40ab994e8410c" },
  joined_at: "2010-09-25T17:49:25.000Z",
  location: "SF",
  about: "I have all your cassette tapes.",
  gender: "male",
  age: 35,
  images: {
    avatar: {
      full: "https://walter-r2.trakt.tv/images/users/000/000/001/avatars/large/cf4f8fe9ab.jpg",
    },
  },
};

const WORKOS_PROFILE = {
  object: "profile",
  id: "prof_01DMC79VCBZ0NY2099737PSVF1",
  organization_id: "org_01EHQMYV6MBK39QC5PZXHY59C3",
  connection_id: "conn_01E4ZCR3C56J083X43JQXF3JK5",
  connection_type: "OktaSAML",
  idp_id: "00u1a0ufowBJlzPlk357",
  email: "todd@example.com",
  first_name: "Todd",
  last_name: "Rundgren",
  raw_attributes: {
    id: "00u1a0ufowBJlzPlk357",
    email: "todd@example.com",
    firstName: "Todd",
    lastName: "Rundgren",
    picture: "https://example.com/todd.jpg",
  },
};

const ZOOM_USER = {
  id: "KDcuGIm1QgePTO8WbOqwIQ",
  first_name: "Jill",
  last_name: "Chill",
  email: "jchill@example.com",
  type: 1,
  role_name: "Owner",
  pmi: 3542471135,
  use_pmi: false,
  personal_meeting_url: "https://zoom.us/j/3542471135",
  timezone: "Asia/Shanghai",
  verified: 1,
  dept: "",
  created_at: "2019-06-01T07:58:03Z",
  last_login_time: "2019-06-01T07:58:03Z",
  pic_url: "https://lh4.googleusercontent.com/-1jL6kqS1aMA/AAAAAAAAAAI/photo.jpg",
  jid: "kdcugim1qgepto8wboqwiq@xmpp.zoom.us",
  group_ids: [],
  im_group_ids: ["3NXCD9VFTCOUH8LD-QciGw"],
  account_id: "gVcjZnYYRLDbb_MfgHuaxg",
  language: "en-US",
  phone_country: "US",
  phone_number: "+1 800000000",
  status: "active",
};

export const group3c: ProviderGroup = {
  pairs: [
    {
      id: "threads",
      options: credentials,
      profiles: [
        {
          data: {
            id: "1234567",
            username: "threadsapitestuser",
            threads_profile_picture_url: "https://scontent.cdninstagram.com/v/t51/1234567.jpg",
          },
        },
        { data: { id: "7654321" } },
      ],
    },
    {
      id: "todoist",
      options: credentials,
      profiles: [
        {
          id: "2671355",
          email: "jane@example.com",
          full_name: "Jane Doe",
          avatar_big: "https://dcff1xvirvpfp.cloudfront.net/kr6_big.jpg",
          avatar_medium: "https://dcff1xvirvpfp.cloudfront.net/kr6_medium.jpg",
          is_premium: true,
          lang: "en",
          inbox_project_id: "6Jf8VQXxpwv56VQ7",
        },
        { id: "2671356", email: "no.avatar@example.com", full_name: "No Avatar", avatar_big: null },
      ],
    },
    { id: "trakt", options: credentials, profiles: [TRAKT_USER] },
    {
      id: "webex",
      options: credentials,
      profiles: [
        {
          id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY",
          emails: ["john.andersen@example.com", "j.andersen@example.org"],
          displayName: "John Andersen",
          nickName: "John",
          avatar:
            "https://1efa7a94ed216783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600",
          orgId:
            "Y2lzY29zcGFyazovL3VzL09SR0FOSVpBVElPTi85NmFiYzJhYS0zZGNjLTExZTUtYTE1Mi1mZTM0ODE5Y2RjOWE",
        },
        { id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9hYmM", emails: [] },
      ],
    },
    {
      id: "wechat",
      options: credentials,
      profiles: [
        {
          openid: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M",
          nickname: "张三",
          sex: 1,
          province: "广东",
          city: "广州",
          country: "中国",
          headimgurl:
            "https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/46",
          privilege: ["PRIVILEGE1", "PRIVILEGE2"],
          unionid: "o6_bmasdasdsad6_2sgVt7hMZOPfL",
        },
      ],
    },
    {
      id: "wikimedia",
      options: credentials,
      profiles: [
        {
          sub: 12345678,
          username: "Jane Doe",
          editcount: 4321,
          confirmed_email: true,
          blocked: false,
          registered: "20150712083156",
          groups: ["*", "user", "autoconfirmed"],
          rights: ["read", "edit", "createpage"],
          grants: ["mwoauth-authonlyprivate"],
          realname: "Jane Doe",
          email: "jane@example.org",
        },
        {
          sub: 87654321,
          username: "Anonymous Editor",
          editcount: 3,
          confirmed_email: true,
          blocked: false,
          registered: "20240101000000",
          groups: ["*", "user"],
          rights: ["read", "edit"],
          grants: ["mwoauth-authonly"],
        },
      ],
    },
    {
      id: "wordpress",
      options: credentials,
      profiles: [
        {
          ID: 1234567,
          display_name: "Jane Doe",
          username: "janedoe",
          email: "jane@example.com",
          email_verified: true,
          primary_blog: 9876543,
          avatar_URL: "https://0.gravatar.com/avatar/1c3e6b6b5d6b3f3d?s=96&d=identicon",
          profile_URL: "https://gravatar.com/janedoe",
        },
      ],
    },
    {
      id: "workos",
      options: credentials,
      profiles: [
        WORKOS_PROFILE,
        { ...WORKOS_PROFILE, raw_attributes: { id: "00u1a0ufowBJlzPlk357" } },
      ],
    },
    {
      id: "zoho",
      options: credentials,
      profiles: [
        {
          First_Name: "Jane",
          Email: "jane@example.com",
          Last_Name: "Doe",
          Display_Name: "jane.doe",
          ZUID: 60012345678,
        },
      ],
    },
    { id: "zoom", options: credentials, profiles: [ZOOM_USER] },
  ],
  differences: [
    {
      id: "todoist",
      field: "userinfo",
      reason:
        "the profile is GET /api/v1/user of Todoist's API v1; Auth.js posts to the Sync API v9, which Todoist shut down on 10 February 2026",
    },
    {
      id: "todoist",
      field: "checks",
      reason: "state is sent with PKCE: Todoist requires state on the authorization request",
    },
    {
      id: "wechat",
      field: "token",
      reason:
        "the code is exchanged with a GET whose query carries appid, secret and code, as WeChat documents, using the credentials resolved at sign-in; Auth.js posts form parameters fixed at creation",
    },
    {
      id: "workos",
      field: "authorization",
      reason:
        "connection and organization are sent only when set, and no scope: Auth.js sends an empty connection and its parser adds `openid profile email`, which WorkOS SSO does not define",
    },
  ],
  factories: [
    ["threads", Threads],
    ["todoist", Todoist],
    ["trakt", Trakt],
    ["webex", Webex],
    ["wechat", WeChat],
    ["wikimedia", Wikimedia],
    ["wordpress", WordPress],
    ["workos", WorkOS],
    ["zoho", Zoho],
    ["zoom", Zoom],
  ] as [string, Factory][],
};
